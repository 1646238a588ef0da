// Concepts whose key the query names, and their aliases (SAME_AS either way: "nyc" also activates "new york city").
MATCH (c:Concept {space: $space})
USING INDEX c:Concept(space, key)
WHERE c.key IN $keys
CALL (c) {
  RETURN c AS k
  UNION
  MATCH (c)-[:SAME_AS]-(k:Concept {space: $space})
  RETURN k
}
WITH DISTINCT k
WITH k.id AS id, k.key AS key, coalesce(k.idf, 1.0) AS idf, coalesce(k.df, 0) AS df
RETURN collect({id: id, key: key, idf: idf, df: df}) AS rows
