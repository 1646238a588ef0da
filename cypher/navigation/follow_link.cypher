MATCH (n {space: $space, id: $node_id})-[r]-(m {space: $space})
WHERE type(r) = $rel_type
RETURN m.id AS id, labels(m)[0] AS label, coalesce(m.text, m.key, m.label, m.title) AS text,
       startNode(r) = n AS outgoing, properties(r) AS properties
ORDER BY coalesce(r.weight, 0) DESC, id
LIMIT $limit
