// Of the given propositions and prescriptions, those no episode proves any more (retired with forget/forget_knowledge).
UNWIND $ids AS item_id
CALL (item_id) {
  MATCH (k:Proposition {space: $space, id: item_id}) RETURN k
  UNION
  MATCH (k:Prescription {space: $space, id: item_id}) RETURN k
}
WITH k WHERE NOT EXISTS { (k)-[:PROVEN_BY]->(:Episode {space: $space}) }
RETURN collect(k.id) AS ids
