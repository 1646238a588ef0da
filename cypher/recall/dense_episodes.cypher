CALL db.index.vector.queryNodes('episode_embedding', $fetch, $vector) YIELD node, score
WHERE node.space = $space AND ($as_of IS NULL OR node.recorded_at <= $as_of)
RETURN node.id AS id, score
LIMIT $k
