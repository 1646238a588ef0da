// Merge intents: the merged one stays (status 'merged', merged_into, SUPERSEDES from the canonical one) and its
// prescriptions (those of the space) are re-pointed to the canonical intent. Both must still be current.
CALL () {
  UNWIND $merges AS m
  MATCH (keep:Intent {space: $space, id: m.canonical})
  USING INDEX keep:Intent(space, id)
  MATCH (old:Intent {space: $space, id: m.merged})
  USING INDEX old:Intent(space, id)
  WHERE coalesce(keep.status, 'active') = 'active' AND coalesce(old.status, 'active') = 'active' AND keep <> old
  SET old.status = 'merged', old.merged_into = keep.id, old.expired_at = datetime()
  MERGE (keep)-[r:SUPERSEDES]->(old)
    ON CREATE SET r.reason = 'intent-merge', r.similarity = m.similarity, r.at = datetime()
  WITH keep, old
  CALL (keep, old) {
    MATCH (p:Prescription {space: $space})-[s:SOLVES]->(old)
    MERGE (p)-[:SOLVES]->(keep)
    DELETE s
    RETURN count(p) AS moved
  }
  RETURN count(old) AS merged, sum(moved) AS moved
}
RETURN merged, moved
