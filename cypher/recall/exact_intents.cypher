// The space's intents (goals of trajectories) closest to the query, each with the active prescriptions that solve
// it: a task phrased as a goal ("prepare a pasta dinner") finds the procedures for it even where their steps use
// other words. A space's intents are few (one per task and subgoal), so they are scanned exactly.
MATCH (node:Intent {space: $space})
WHERE node.embedding IS NOT NULL
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.id
LIMIT $k
OPTIONAL MATCH (r:Prescription {space: $space})-[:SOLVES]->(node)
WHERE coalesce(r.status, 'active') = 'active' AND ($known_at IS NULL OR r.recorded_at <= $known_at)
WITH node, score, collect(r.id) AS prescriptions
ORDER BY score DESC, node.id
RETURN collect({id: node.id, score: score, prescriptions: prescriptions}) AS rows
