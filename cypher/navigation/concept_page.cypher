MATCH (c:Concept {space: $space})
USING INDEX c:Concept(space, key)
WHERE c.key = $key
OPTIONAL MATCH (c)-[:IN]->(d:Dimension {space: $space})
RETURN c.id AS id, c.key AS key, c.name AS name, c.df AS df, coalesce(c.importance, 0.0) AS importance,
       d.id AS dimension_id, d.label AS dimension,
       [(c)-[r:ASSOCIATED]-(n:Concept {space: $space}) | {key: n.key, weight: r.count * coalesce(c.idf, 0.0) * coalesce(n.idf, 0.0)}] AS associated,
       [(c)-[:SAME_AS]-(n:Concept {space: $space}) | n.key] AS aliases
