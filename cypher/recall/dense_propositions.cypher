// Vector search cannot filter inside the index on Neo4j 5.26: over-fetch, then keep this space's current
// knowledge (or, with $as_of, what the graph held at that time).
CALL db.index.vector.queryNodes('proposition_embedding', $fetch, $vector) YIELD node, score
WHERE node.space = $space
  AND CASE WHEN $as_of IS NULL THEN node.status = 'active'
      ELSE node.recorded_at <= $as_of AND (node.expired_at IS NULL OR node.expired_at > $as_of) END
RETURN node.id AS id, score
LIMIT $k
