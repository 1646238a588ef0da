// The space's concepts with their keys and embeddings (revisions.py: two values of one attribute are close concepts).
MATCH (c:Concept {space: $space})
WHERE c.embedding IS NOT NULL
RETURN c.id AS id, c.key AS key, c.embedding AS embedding
ORDER BY id
