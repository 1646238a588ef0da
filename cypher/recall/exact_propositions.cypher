// A small space is scanned exactly instead of through the shared vector index: no over-fetch, no
// approximate misses when other spaces dominate the index.
MATCH (node:Proposition {space: $space})
WHERE node.embedding IS NOT NULL AND CASE WHEN $as_of IS NULL THEN node.status = 'active'
      ELSE node.recorded_at <= $as_of AND (node.expired_at IS NULL OR node.expired_at > $as_of) END
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC
LIMIT $k
RETURN node.id AS id, score
