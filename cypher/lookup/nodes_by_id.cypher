// Nodes of one space by id; `label` comes from the id's prefix, so each row costs one index seek.
UNWIND $rows AS row
CALL (row) {
  MATCH (n:Proposition {space: $space, id: row.id}) WHERE row.label = 'Proposition' RETURN n
  UNION
  MATCH (n:Episode {space: $space, id: row.id}) WHERE row.label = 'Episode' RETURN n
  UNION
  MATCH (n:Concept {space: $space, id: row.id}) WHERE row.label = 'Concept' RETURN n
  UNION
  MATCH (n:Source {space: $space, id: row.id}) WHERE row.label = 'Source' RETURN n
  UNION
  MATCH (n:Prescription {space: $space, id: row.id}) WHERE row.label = 'Prescription' RETURN n
  UNION
  MATCH (n:Intent {space: $space, id: row.id}) WHERE row.label = 'Intent' RETURN n
  UNION
  MATCH (n:Dimension {space: $space, id: row.id}) WHERE row.label = 'Dimension' RETURN n
}
// A prescription's intent is its SOLVES edge, not a property: it is read here so `intentId` and `intent` resolve.
RETURN n.id AS id, row.label AS label,
       CASE row.label
         WHEN 'Prescription' THEN n {.*, embedding: null, intent_id: head([(n)-[:SOLVES]->(i:Intent {space: $space}) | i.id])}
         ELSE n {.*, embedding: null}
       END AS properties
