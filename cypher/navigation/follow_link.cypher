MATCH (n {space: $space, id: $node_id})-[r]-(m {space: $space})
WHERE type(r) = $rel_type
// An association's weight (co-mentions x idf x idf) is computed here, from the current idf of both ends.
WITH n, r, m, properties(r) AS stored,
     CASE type(r) WHEN 'ASSOCIATED' THEN r.count * coalesce(n.idf, 0.0) * coalesce(m.idf, 0.0)
                  ELSE r.weight END AS weight
RETURN m.id AS id, labels(m)[0] AS label, coalesce(m.text, m.key, m.label, m.title) AS text,
       startNode(r) = n AS outgoing, CASE WHEN weight IS NULL THEN stored ELSE stored {.*, weight: weight} END AS properties
ORDER BY coalesce(weight, 0) DESC, id
LIMIT $limit
