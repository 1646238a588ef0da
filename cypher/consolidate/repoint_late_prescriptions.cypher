// Prescriptions that reached a merged intent after the merge (ingestion MERGEs SOLVES on the intent id it
// extracted) are re-pointed to the current intent that stands for it.
CALL () {
  MATCH (old:Intent {space: $space, status: 'merged'})<-[s:SOLVES]-(p:Prescription)
  MATCH (head:Intent)-[:SUPERSEDES*1..10]->(old)
  WHERE coalesce(head.status, 'active') = 'active'
  MERGE (p)-[:SOLVES]->(head)
  DELETE s
  RETURN count(DISTINCT p) AS moved
}
RETURN moved
