// Of the given propositions and prescriptions, those no episode proves any more as their own (retired with
// forget/forget_knowledge, $restore_replaced): proofs inherited from the statements consolidation merged into a
// proposition are theirs, not its wording's. A correction's proofs are all inherited: it goes when it has none.
UNWIND $ids AS item_id
CALL (item_id) {
  MATCH (k:Proposition {space: $space, id: item_id}) RETURN k
  UNION
  MATCH (k:Prescription {space: $space, id: item_id}) RETURN k
}
WITH k WHERE NOT EXISTS {
  MATCH (k)-[r:PROVEN_BY]->(:Episode {space: $space})
  WHERE r.inherited_from IS NULL OR k.origin = 'correction'
}
RETURN collect(k.id) AS ids
