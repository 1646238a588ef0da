// The space's concept keys with their embeddings and document frequencies.
MATCH (c:Concept {space: $space})
WHERE c.embedding IS NOT NULL
RETURN c.id AS id, c.key AS key, c.df AS df, c.embedding AS embedding
ORDER BY c.id
