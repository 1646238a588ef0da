// Concept pages of a dimension, most important first, with a short summary from their best propositions.
MATCH (d:Dimension {space: $space, id: $dimension_id})<-[:IN]-(c:Concept {space: $space})
WITH c ORDER BY coalesce(c.importance, 0.0) DESC, c.df DESC, c.key
SKIP $skip LIMIT $limit
CALL (c) {
  MATCH (c)<-[:MENTIONS]-(p:Proposition {space: $space}) WHERE p.status = 'active'
  RETURN p.text AS text ORDER BY p.confidence DESC, p.valid_from DESC LIMIT 3
}
RETURN c.id AS id, c.key AS key, c.name AS name, c.df AS df, coalesce(c.importance, 0.0) AS importance,
       collect(text) AS summary
