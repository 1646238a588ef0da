// A small space is scanned exactly instead of through the shared vector index: no over-fetch, no
// approximate misses when other spaces dominate the index.
MATCH (node:Prescription {space: $space})
WHERE node.embedding IS NOT NULL AND coalesce(node.status, 'active') = 'active'
  AND ($known_at IS NULL OR node.recorded_at <= $known_at)
  AND (size(keys($scope)) = 0 OR EXISTS {  // $scope: proven by an episode the filter keeps (hydrate_propositions)
    MATCH (node)-[:PROVEN_BY]->(e:Episode {space: $space}) WHERE all(key IN keys($scope) WHERE e[key] = $scope[key])
  })
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.id
LIMIT $k
WITH node.id AS id, score
RETURN collect({id: id, score: score}) AS rows
