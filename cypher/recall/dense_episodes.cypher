CALL db.index.vector.queryNodes('episode_embedding', $fetch, $vector) YIELD node, score
WHERE node.space = $space AND ($as_of IS NULL OR node.recorded_at <= $as_of)
WITH node.id AS id, score
ORDER BY score DESC, id  // ties broken by id: the same memory answers the same way
LIMIT $k
RETURN collect({id: id, score: score}) AS rows
