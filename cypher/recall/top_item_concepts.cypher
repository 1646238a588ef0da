UNWIND $ids AS item_id
MATCH (p:Proposition {space: $space, id: item_id})-[:MENTIONS]->(c:Concept)
USING INDEX p:Proposition(space, id)
WITH DISTINCT c.id AS id, c.key AS key, coalesce(c.idf, 1.0) AS idf, coalesce(c.df, 0) AS df
RETURN collect({id: id, key: key, idf: idf, df: df}) AS rows
