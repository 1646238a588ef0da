// Included by the exact episode scans (exact_episodes, exact_episodes_scored): every episode of the space (told by
// $speakers where given, in the filter's labels) scored against $vector, as `node` and `score`.
MATCH (node:Episode {space: $space})
WHERE node.embedding IS NOT NULL AND ($as_of IS NULL OR coalesce(node.occurred_at, node.recorded_at) <= $as_of) AND ($known_at IS NULL OR node.recorded_at <= $known_at)
  AND ($speakers IS NULL OR node.speaker IN $speakers)
  AND all(key IN keys($scope) WHERE node[key] = $scope[key])  // $scope: the filter's labels (hydrate_episodes)
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
