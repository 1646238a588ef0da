MATCH (c:Concept {space: $space})
RETURN c.id AS id
ORDER BY c.id
