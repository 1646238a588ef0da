// The ASSOCIATED edges between the concepts the given propositions mention, recounted exactly (active
// propositions mentioning both): what an ingest job can change, and no more. A hub concept's other edges are
// left alone, so the cost follows the job's size, not the space's.
UNWIND $proposition_ids AS proposition_id
MATCH (p:Proposition {space: $space, id: proposition_id})
USING INDEX p:Proposition(space, id)
MATCH (a:Concept)<-[:MENTIONS]-(p)-[:MENTIONS]->(b:Concept)
WHERE a.id < b.id
WITH DISTINCT a, b
WITH a, b, COUNT { (a)<-[:MENTIONS]-(q:Proposition)-[:MENTIONS]->(b) WHERE q.status = 'active' } AS together
CALL (a, b, together) {
  WITH a, b, together WHERE together > 0
  MERGE (a)-[r:ASSOCIATED]->(b)
  SET r.count = together
}
CALL (a, b, together) {
  WITH a, b, together WHERE together = 0
  MATCH (a)-[r:ASSOCIATED]->(b)
  DELETE r
}
RETURN count(*) AS pairs
