// A small space is scanned exactly instead of through the shared vector index: no over-fetch, no
// approximate misses when other spaces dominate the index. With $speakers: only what they said.
// Each hit comes with the knowledge it proves, as in dense_episodes.
MATCH (node:Episode {space: $space})
WHERE node.embedding IS NOT NULL AND ($as_of IS NULL OR node.recorded_at <= $as_of)
  AND ($speakers IS NULL OR node.speaker IN $speakers)
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.id
LIMIT $k
OPTIONAL MATCH (k:Proposition)-[:PROVEN_BY]->(node)
WITH node, score, k, CASE WHEN $as_of IS NULL THEN k.status = 'active'
     ELSE k.recorded_at <= $as_of AND (k.expired_at IS NULL OR k.expired_at > $as_of) END AS current
WITH node, score, collect(CASE WHEN current THEN k.id END) AS propositions, count(k) AS knowledge
RETURN collect({id: node.id, score: score, propositions: propositions, knowledge: knowledge}) AS rows
