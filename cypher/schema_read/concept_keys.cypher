MATCH (c:Concept {space: $space})
RETURN c.key AS key, c.name AS name, c.embedding AS embedding
