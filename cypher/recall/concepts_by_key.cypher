MATCH (c:Concept {space: $space})
USING INDEX c:Concept(space, key)
WHERE c.key IN $keys
RETURN c.id AS id, c.key AS key, coalesce(c.idf, 1.0) AS idf, coalesce(c.df, 0) AS df
