// A small space is scanned exactly instead of through the shared vector index: no over-fetch, no
// approximate misses when other spaces dominate the index. With $speakers: only what they said.
// Each hit comes with the knowledge it proves, as in dense_episodes.
MATCH (node:Episode {space: $space})
WHERE node.embedding IS NOT NULL AND ($as_of IS NULL OR node.recorded_at <= $as_of)
  AND ($speakers IS NULL OR node.speaker IN $speakers)
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.id
LIMIT $k
OPTIONAL MATCH (p:Proposition {space: $space})-[:PROVEN_BY]->(node)
WITH node, score, p, CASE WHEN $as_of IS NULL THEN p.status = 'active'
     ELSE p.recorded_at <= $as_of AND (p.expired_at IS NULL OR p.expired_at > $as_of) END AS current,
     $as_of IS NULL OR p.recorded_at <= $as_of AS known  // what memory had recorded by then
WITH node, score, collect(CASE WHEN current THEN p.id END) AS propositions,
     count(CASE WHEN known THEN p END) AS knowledge
// A trajectory step proves the prescriptions drawn from it (they have no later versions: current = active).
OPTIONAL MATCH (r:Prescription {space: $space})-[:PROVEN_BY]->(node)
WHERE r.status = 'active' AND ($as_of IS NULL OR r.recorded_at <= $as_of)
WITH node, score, propositions, knowledge, collect(r.id) AS prescriptions
ORDER BY score DESC, node.id
RETURN collect({id: node.id, score: score, propositions: propositions, prescriptions: prescriptions,
                knowledge: knowledge + size(prescriptions)}) AS rows
