// Prescriptions that reached a merged intent after the merge (ingestion MERGEs SOLVES on the intent id it
// extracted) are re-pointed to the current intent that stands for it, over links of the space only (DISTINCT heads:
// see lineage.cypher).
CALL () {
  MATCH (old:Intent {space: $space, status: 'merged'})<-[s:SOLVES]-(p:Prescription {space: $space})
  USING INDEX old:Intent(space)
  MATCH (head:Intent {space: $space})-[links:SUPERSEDES*1..10]->(old)
  WHERE coalesce(head.status, 'active') = 'active' AND all(r IN links WHERE endNode(r).space = $space)
  WITH DISTINCT s, p, head
  MERGE (p)-[:SOLVES]->(head)
  DELETE s
  RETURN count(DISTINCT p) AS moved
}
RETURN moved
