// Exact co-mention counts for the given concept pairs (a.id < b.id): recomputed, never incremented, so a
// redelivered job or a forget leaves the same edges; a pair nothing co-mentions any more loses its edge.
// weight = count * idf(a) * idf(b) with the idf of now; edges a job does not touch keep their older weight
// until periodic consolidation recomputes them all.
UNWIND $pairs AS pair
MATCH (a:Concept {space: $space, id: pair.a})
USING INDEX a:Concept(space, id)
MATCH (b:Concept {space: $space, id: pair.b})
USING INDEX b:Concept(space, id)
WITH a, b,
     CASE WHEN coalesce(a.df, 0) <= coalesce(b.df, 0) THEN a ELSE b END AS rare,
     CASE WHEN coalesce(a.df, 0) <= coalesce(b.df, 0) THEN b ELSE a END AS common
WITH a, b, COUNT { (rare)<-[:MENTIONS]-(p:Proposition)-[:MENTIONS]->(common) WHERE p.status = 'active' } AS together
CALL (a, b, together) {
  WITH a, b, together WHERE together > 0
  MERGE (a)-[r:ASSOCIATED]->(b)
  SET r.count = together, r.weight = together * coalesce(a.idf, 0.0) * coalesce(b.idf, 0.0)
}
CALL (a, b, together) {
  WITH a, b, together WHERE together = 0
  OPTIONAL MATCH (a)-[r:ASSOCIATED]-(b)
  DELETE r
}
RETURN count(*) AS pairs
