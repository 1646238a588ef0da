// The space's concepts among GDS internal node ids, read after Louvain: a concept deleted since the projection
// (forgotten, merged) is absent, and an internal id reused since by another node (another space, another label)
// matches nothing.
UNWIND $node_ids AS node_id
MATCH (c:Concept)
WHERE id(c) = node_id AND c.space = $space
RETURN node_id, c.id AS id, c.key AS key
