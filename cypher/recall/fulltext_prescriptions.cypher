CALL db.index.fulltext.queryNodes('prescription_text', $lucene, {limit: $fetch}) YIELD node, score
WHERE node.space = $space AND coalesce(node.status, 'active') = 'active'
WITH node.id AS id, score
ORDER BY score DESC, id
LIMIT $k
RETURN collect({id: id, score: score}) AS rows
