// Space overview: how many nodes of each label and relationships of each type a memory space holds, with a few
// examples of each (the dimensions' labels, the most mentioned concepts, ...). Shows a table.
// Parameters: $space (memory space).
UNWIND ['Space', 'Source', 'Episode', 'Proposition', 'Concept', 'Intent', 'Prescription', 'Dimension'] AS label
CALL (label) {
  MATCH (n:$(label) {space: $space})
  WITH n ORDER BY coalesce(n.df, 0) DESC, coalesce(n.importance, 0.0) DESC, n.id
  RETURN count(n) AS count,
         collect(coalesce(n.label, n.name, n.title, n.text, n.id))[..3] AS examples
}
RETURN 'node' AS kind, label AS name, count, examples
UNION ALL
MATCH (a {space: $space})-[r]->(b {space: $space})
RETURN 'relationship' AS kind, type(r) AS name, count(r) AS count, [] AS examples
