// A concept, its dimension, its $max_associated strongest associations (weight: co-mentions x idf x idf, computed
// here from the current idf of both ends) and its aliases. The associations are ranked and cut here: a concept
// associated with thousands costs the memory of one page.
MATCH (c:Concept {space: $space})
USING INDEX c:Concept(space, key)
WHERE c.key = $key
OPTIONAL MATCH (c)-[:IN]->(d:Dimension {space: $space})
CALL (c) {
  MATCH (c)-[r:ASSOCIATED]-(n:Concept {space: $space})
  WITH n.key AS key, r.count * coalesce(c.idf, 0.0) * coalesce(n.idf, 0.0) AS weight
  ORDER BY weight DESC, key LIMIT $max_associated
  RETURN collect({key: key, weight: weight}) AS associated
}
CALL (c) {
  MATCH (c)-[:SAME_AS]-(n:Concept {space: $space})
  WITH n.key AS alias ORDER BY alias LIMIT $max_associated
  RETURN collect(alias) AS aliases
}
RETURN c.id AS id, c.key AS key, c.name AS name, c.df AS df, coalesce(c.importance, 0.0) AS importance,
       d.id AS dimension_id, d.label AS dimension, associated, aliases
