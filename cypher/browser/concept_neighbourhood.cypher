// A concept's neighbourhood: the concepts most associated with it (ASSOCIATED, strongest 15), its aliases
// (SAME_AS), the dimension it belongs to (IN) and the active propositions that mention it (15 most confident).
// Shows a graph.
// Parameters: $space (memory space); $key (the concept key, e.g. "support group", or its display name).
MATCH (c:Concept {space: $space})
WHERE c.key = $key OR toLower(c.name) = toLower($key)
WITH c ORDER BY c.key = $key DESC LIMIT 1
CALL (c) {
  MATCH link = (c)-[r:ASSOCIATED]-(n:Concept {space: $space})
  WITH link ORDER BY r.count * coalesce(c.idf, 0.0) * coalesce(n.idf, 0.0) DESC LIMIT 15
  RETURN collect(link) AS associated
}
CALL (c) {
  MATCH alias = (c)-[:SAME_AS]-(:Concept {space: $space})
  RETURN collect(alias) AS aliases
}
CALL (c) {
  MATCH member = (c)-[:IN]->(:Dimension {space: $space})
  RETURN collect(member) AS dimension
}
CALL (c) {
  MATCH mention = (p:Proposition {space: $space})-[:MENTIONS]->(c)
  WHERE p.status = 'active'
  WITH mention, p ORDER BY p.confidence DESC, p.recorded_at DESC LIMIT 15
  RETURN collect(mention) AS mentioned_by
}
RETURN c AS concept, associated, aliases, dimension, mentioned_by
