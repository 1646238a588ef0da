// The episodes that prove each knowledge item (propositions, prescriptions), in time order.
UNWIND $ids AS item_id
CALL (item_id) {
  MATCH (k:Proposition {space: $space, id: item_id}) RETURN k
  UNION
  MATCH (k:Prescription {space: $space, id: item_id}) RETURN k
}
MATCH (k)-[:PROVEN_BY]->(e:Episode {space: $space})
WITH item_id, e ORDER BY e.occurred_at, e.seq
RETURN item_id, collect(e {.*, embedding: null}) AS episodes
