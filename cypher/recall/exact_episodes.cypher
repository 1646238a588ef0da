// A small space is scanned exactly instead of through the shared vector index: no over-fetch, no
// approximate misses when other spaces dominate the index. With $speakers: only what they said.
// Each hit comes with the knowledge it proves, as in dense_episodes.
MATCH (node:Episode {space: $space})
WHERE node.embedding IS NOT NULL AND ($as_of IS NULL OR node.recorded_at <= $as_of)
  AND ($speakers IS NULL OR node.speaker IN $speakers)
  AND all(key IN keys($scope) WHERE node[key] = $scope[key])  // $scope: the filter's labels (hydrate_episodes)
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.id
LIMIT $k
// include recall/episode_knowledge
WITH node, score, row
ORDER BY score DESC, node.id
RETURN collect(row) AS rows
