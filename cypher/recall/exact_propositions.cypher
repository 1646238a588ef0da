// A small space is scanned exactly instead of through the shared vector index: no over-fetch, no
// approximate misses when other spaces dominate the index. A statement merged into another stays an access
// path: its hit counts for the proposition that now stands for it (see dense_propositions).
MATCH (node:Proposition {space: $space})
WHERE node.embedding IS NOT NULL
  AND (size(keys($scope)) = 0 OR EXISTS {  // $scope: proven by an episode the filter keeps (hydrate_propositions)
    MATCH (node)-[:PROVEN_BY]->(e:Episode {space: $space}) WHERE all(key IN keys($scope) WHERE e[key] = $scope[key])
  })
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.id
LIMIT $fetch
CALL (node) {
  // A carrying update's hit finds the current value; a revision's (carry false) is a candidate itself.
  MATCH path = (p:Proposition {space: $space})-[:SUPERSEDES*0..8]->(node)
  WHERE all(r IN relationships(path) WHERE r.reason = 'merge' OR (r.reason = 'updated' AND coalesce(r.carry, true)))
    AND
    // include recall/candidate_proposition
  RETURN p AS current LIMIT 1
}
WITH current, max(score) AS score
WITH current.id AS id, score
ORDER BY score DESC, id  // ties broken by id: the same memory answers the same way
LIMIT $k
RETURN collect({id: id, score: score}) AS rows
