// Forget knowledge items (propositions, prescriptions) themselves; the episodes that proved them stay.
// The statements merged into a forgotten proposition (the same fact in other words, consolidation's 'merge') go with
// it: they stood for it and would keep its text. An intent left without prescriptions goes too. Returns the concepts
// whose statistics must be refreshed. With $restore_replaced (knowledge retired by a re-ingest, not forgotten by
// request) the statements it replaced are not taken: those it merged or updated are current again.
UNWIND $ids AS item_id
CALL (item_id) {
  MATCH (k:Proposition {space: $space, id: item_id}) RETURN k
  UNION
  MATCH (k:Prescription {space: $space, id: item_id}) RETURN k
}
CALL (k) {
  RETURN k AS doomed
  UNION
  MATCH (k) ((:Proposition)-[:SUPERSEDES {reason: 'merge'}]->(:Proposition {space: $space})){1,10} (merged)
  WHERE NOT $restore_replaced
  RETURN merged AS doomed
}
WITH DISTINCT doomed AS k
OPTIONAL MATCH (k)-[:MENTIONS]->(c:Concept {space: $space})
OPTIONAL MATCH (k)-[:SOLVES]->(i:Intent {space: $space})
WITH k, collect(DISTINCT c.id) AS concept_ids, collect(DISTINCT i) AS intents
WITH collect(k.id) AS knowledge_ids, collect(k) AS doomed, apoc.coll.flatten(collect(concept_ids)) AS concept_ids,
     apoc.coll.toSet(apoc.coll.flatten(collect(intents))) AS intents
CALL (doomed) {
  UNWIND doomed AS k
  MATCH (k)-[s:SUPERSEDES]->(old:Proposition {space: $space})
  WHERE $restore_replaced AND k.status = 'active' AND s.reason IN ['merge', 'updated'] AND old.status = 'superseded'
    AND NOT old IN doomed
  SET old.status = 'active', old.expired_at = null, old.superseded_by = null,
      old.valid_to = CASE WHEN s.reason = 'updated' THEN null ELSE old.valid_to END
  WITH DISTINCT old
  OPTIONAL MATCH (old)-[:MENTIONS]->(c:Concept {space: $space})
  RETURN collect(DISTINCT c.id) AS restored_concept_ids
}
FOREACH (k IN doomed | DETACH DELETE k)
WITH knowledge_ids, concept_ids + restored_concept_ids AS concept_ids, intents
CALL (intents) {
  UNWIND intents AS i
  WITH i WHERE NOT EXISTS { (i)<-[:SOLVES]-(:Prescription {space: $space}) }
  WITH collect(i.id) AS ids, collect(i) AS empty
  FOREACH (i IN empty | DETACH DELETE i)
  RETURN ids AS intent_ids
}
RETURN knowledge_ids, apoc.coll.toSet(concept_ids) AS concept_ids, intent_ids
