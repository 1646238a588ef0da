// A page of a memory space's nodes of one label ({label}: graph/vector_export.py fills it in from its fixed list)
// after the cursor, in id order, with every property (the vector apart) and the relationships they start inside
// the space, each with its end's label among $labels (the import looks ends up by label and id).
MATCH (n:{label} {space: $space})
USING INDEX n:{label}(space, id)
WHERE n.id > $after
WITH n ORDER BY n.id LIMIT $limit
RETURN n.id AS id, n.embedding AS embedding, apoc.map.removeKey(properties(n), 'embedding') AS props,
       [(n)-[r]->(m {space: $space}) |
        [type(r), [l IN labels(m) WHERE l IN $labels][0], m.id, properties(r)]] AS out
