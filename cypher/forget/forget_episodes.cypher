// Forget episodes with cascade, in one transaction:
//  - knowledge (propositions, prescriptions) proven only by forgotten episodes is deleted;
//  - knowledge also proven by other episodes only loses the PROVEN_BY links; but a proposition left with inherited
//    proofs only (consolidation carried them from the statements merged into it or updated by it) is deleted: its
//    wording came from the forgotten text. The statements it replaced that keep proofs of their own are current
//    again (a correction's proofs are all inherited: it stays while it has any);
//  - sources left without episodes are deleted; intents left without prescriptions are deleted.
// Returns what was removed and the concepts whose statistics must be refreshed. Every far end is matched in $space:
// an edge into another space can neither have its nodes deleted nor keep this space's alive.
MATCH (e:Episode {space: $space}) USING INDEX e:Episode(space, id)
WHERE e.id IN $episode_ids
WITH collect(e) AS episodes
CALL (episodes) {
  UNWIND episodes AS e
  MATCH (k {space: $space})-[:PROVEN_BY]->(e) WHERE k:Proposition OR k:Prescription
  WITH DISTINCT k, episodes
  WHERE NOT EXISTS {
    MATCH (k)-[r:PROVEN_BY]->(other:Episode {space: $space})
    WHERE NOT other IN episodes AND (r.inherited_from IS NULL OR k.origin = 'correction')
  }
  OPTIONAL MATCH (k)-[:MENTIONS]->(c:Concept {space: $space})
  OPTIONAL MATCH (k)-[:SOLVES]->(i:Intent {space: $space})
  WITH k, collect(DISTINCT c.id) AS concept_ids, collect(DISTINCT i) AS intents
  WITH collect(k.id) AS knowledge_ids, collect(k) AS doomed, apoc.coll.flatten(collect(concept_ids)) AS concept_ids,
       apoc.coll.toSet(apoc.coll.flatten(collect(intents))) AS intents
  CALL (doomed) {
    UNWIND doomed AS k
    MATCH (k)-[s:SUPERSEDES]->(old:Proposition {space: $space})
    WHERE k.status = 'active' AND s.reason IN ['merge', 'updated'] AND old.status = 'superseded' AND NOT old IN doomed
    SET old.status = 'active', old.expired_at = null, old.superseded_by = null,
        old.valid_to = CASE WHEN s.reason = 'updated' THEN null ELSE old.valid_to END
    WITH DISTINCT old
    OPTIONAL MATCH (old)-[:MENTIONS]->(c:Concept {space: $space})
    RETURN collect(DISTINCT c.id) AS restored_concept_ids
  }
  FOREACH (k IN doomed | DETACH DELETE k)
  RETURN knowledge_ids, concept_ids + restored_concept_ids AS concept_ids, intents
}
CALL (episodes) {
  UNWIND episodes AS e
  MATCH (e)-[:PART_OF]->(s:Source {space: $space})
  RETURN collect(DISTINCT s) AS sources
}
WITH episodes, knowledge_ids, concept_ids, intents, sources, [e IN episodes | e.id] AS episode_ids
FOREACH (e IN episodes | DETACH DELETE e)
WITH knowledge_ids, concept_ids, intents, sources, episode_ids
CALL (sources) {
  UNWIND sources AS s
  WITH s WHERE NOT EXISTS { (s)<-[:PART_OF]-(:Episode {space: $space}) }
  WITH collect(s.id) AS ids, collect(s) AS empty
  FOREACH (s IN empty | DETACH DELETE s)
  RETURN ids AS source_ids
}
CALL (intents) {
  UNWIND intents AS i
  WITH i WHERE NOT EXISTS { (i)<-[:SOLVES]-(:Prescription {space: $space}) }
  WITH collect(i.id) AS ids, collect(i) AS empty
  FOREACH (i IN empty | DETACH DELETE i)
  RETURN ids AS intent_ids
}
RETURN episode_ids, knowledge_ids, apoc.coll.toSet(concept_ids) AS concept_ids, source_ids, intent_ids
