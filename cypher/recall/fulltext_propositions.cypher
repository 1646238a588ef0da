CALL db.index.fulltext.queryNodes('proposition_text', $lucene, {limit: $fetch}) YIELD node, score
WHERE node.space = $space
  AND CASE WHEN $as_of IS NULL THEN node.status = 'active'
      ELSE node.recorded_at <= $as_of AND (node.expired_at IS NULL OR node.expired_at > $as_of) END
RETURN node.id AS id, score
LIMIT $k
