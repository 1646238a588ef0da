// The node is found by label and (space, id): a unique index seek per label (ids are unique across labels), never a
// scan of every space's nodes. The far end must be of the space too.
CALL () {
  MATCH (n:Proposition {space: $space, id: $node_id}) USING INDEX SEEK n:Proposition(space, id) RETURN n
  UNION
  MATCH (n:Episode {space: $space, id: $node_id}) USING INDEX SEEK n:Episode(space, id) RETURN n
  UNION
  MATCH (n:Concept {space: $space, id: $node_id}) USING INDEX SEEK n:Concept(space, id) RETURN n
  UNION
  MATCH (n:Source {space: $space, id: $node_id}) USING INDEX SEEK n:Source(space, id) RETURN n
  UNION
  MATCH (n:Prescription {space: $space, id: $node_id}) USING INDEX SEEK n:Prescription(space, id) RETURN n
  UNION
  MATCH (n:Intent {space: $space, id: $node_id}) USING INDEX SEEK n:Intent(space, id) RETURN n
  UNION
  MATCH (n:Dimension {space: $space, id: $node_id}) USING INDEX SEEK n:Dimension(space, id) RETURN n
}
MATCH (n)-[r]-(m {space: $space})
WHERE type(r) = $rel_type
// An association's weight (co-mentions x idf x idf) is computed here, from the current idf of both ends.
WITH n, r, m, properties(r) AS stored,
     CASE type(r) WHEN 'ASSOCIATED' THEN r.count * coalesce(n.idf, 0.0) * coalesce(m.idf, 0.0)
                  ELSE r.weight END AS weight
RETURN m.id AS id, labels(m)[0] AS label, coalesce(m.text, m.key, m.label, m.title) AS text,
       startNode(r) = n AS outgoing, CASE WHEN weight IS NULL THEN stored ELSE stored {.*, weight: weight} END AS properties
ORDER BY coalesce(weight, 0) DESC, id
LIMIT $limit
