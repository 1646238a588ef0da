// The ASSOCIATED edges between the concepts the given propositions mention, recounted exactly (active
// propositions mentioning both): what an ingest job can change, and no more. Each pair is counted from its rarer
// end (one scan of that concept's mentions for all its pairs), so a hub concept's mentions are scanned only when
// it meets another hub, and a hub's other edges are left alone.
UNWIND $proposition_ids AS proposition_id
MATCH (p:Proposition {space: $space, id: proposition_id})
USING INDEX p:Proposition(space, id)
MATCH (a:Concept {space: $space})<-[:MENTIONS]-(p)-[:MENTIONS]->(b:Concept {space: $space})
WHERE a.id < b.id
WITH DISTINCT a, b
WITH CASE WHEN coalesce(a.df, 0) <= coalesce(b.df, 0) THEN a ELSE b END AS rare,
     CASE WHEN coalesce(a.df, 0) <= coalesce(b.df, 0) THEN b ELSE a END AS other
WITH rare, collect(other) AS others
CALL (rare, others) {
  MATCH (rare)<-[:MENTIONS]-(q:Proposition {space: $space})-[:MENTIONS]->(other:Concept)
  WHERE q.status = 'active' AND other IN others
  WITH other, count(q) AS together
  WITH other, together,
       CASE WHEN rare.id < other.id THEN rare ELSE other END AS a, CASE WHEN rare.id < other.id THEN other ELSE rare END AS b
  MERGE (a)-[r:ASSOCIATED]->(b)
  SET r.count = together
  RETURN collect(other) AS counted
}
CALL (rare, others, counted) {
  // A pair no active proposition mentions together any more (a re-ingested statement that was superseded)
  UNWIND others AS other
  WITH other WHERE NOT other IN counted
  MATCH (rare)-[r:ASSOCIATED]-(other)
  DELETE r
}
RETURN sum(size(others)) AS pairs
