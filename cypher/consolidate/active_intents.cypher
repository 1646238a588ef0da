// The space's current intents (not merged into another) with their embeddings and how many of the space's
// prescriptions solve them.
MATCH (i:Intent {space: $space})
WHERE coalesce(i.status, 'active') = 'active' AND i.embedding IS NOT NULL
RETURN i.id AS id, i.text AS text, i.recorded_at AS recorded_at, i.embedding AS embedding,
       COUNT { (:Prescription {space: $space})-[:SOLVES]->(i) } AS prescriptions
ORDER BY i.id
