// The concepts each proposition mentions.
UNWIND $ids AS item_id
MATCH (p:Proposition {space: $space, id: item_id})-[:MENTIONS]->(c:Concept {space: $space})
USING INDEX p:Proposition(space, id)
WITH item_id, c ORDER BY c.key
RETURN item_id, collect(c {.*, embedding: null}) AS concepts
