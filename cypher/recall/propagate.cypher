// One hop of activation over ASSOCIATED edges: each seed's strongest neighbours.
UNWIND $seeds AS seed
MATCH (c:Concept {space: $space, id: seed.id})
USING INDEX c:Concept(space, id)
CALL (c) {
  MATCH (c)-[r:ASSOCIATED]-(n:Concept {space: $space})
  WITH n, r.count * coalesce(c.idf, 0.0) * coalesce(n.idf, 0.0) AS weight
  RETURN n, weight ORDER BY weight DESC, n.id LIMIT $fanout
}
WITH seed.id AS seed, n.id AS id, n.key AS key, coalesce(n.idf, 1.0) AS idf, coalesce(n.df, 0) AS df, weight
RETURN collect({seed: seed, id: id, key: key, idf: idf, df: df, weight: weight}) AS rows
