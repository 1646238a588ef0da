// Supersede a current proposition by a user's correction, in one transaction. The corrected statement gets
// ingestion's id for its text (an existing node of that text becomes current again); it inherits the old one's
// concepts, and mentions the existing concepts its own keyphrases name. No row if the old one is no longer current.
// Concepts are inherited from the space only (an edge into another space carries nothing).
// Its proof is the correction itself: an episode of the space's `correction` source (the user's words, said when the
// correction was made), not the turns that proved the statement it replaces ("I live in Porto" proves no Berlin).
// Times: the old statement stops being true when the correction says the change happened ($valid_from), else when
// the correction was made; the new one holds from then (an existing statement of that text keeps its own time).
MATCH (old:Proposition {space: $space, id: $old_id})
USING INDEX old:Proposition(space, id)
WHERE old.status = 'active'
MERGE (new:Proposition {space: $space, id: $new_id})
  ON CREATE SET new.recorded_at = datetime(), new.text = $text, new.subject = $subject, new.predicate = $predicate,
                new.object = $object, new.valid_from = coalesce($valid_from, datetime()),
                new.importance = old.importance
SET new.status = 'active', new.expired_at = null, new.valid_to = null, new.confidence = 1.0,
    new.origin = 'correction', new.corrected_at = datetime(), new.correction_reason = $reason,
    old.status = 'superseded', old.expired_at = datetime(), old.superseded_by = new.id,
    old.valid_to = coalesce($valid_from, datetime())
MERGE (new)-[r:SUPERSEDES]->(old)
  ON CREATE SET r.reason = 'correction', r.note = $reason, r.at = datetime(),
                r.carry = false  // the old turns prove no correction, not even later (carry_late_proofs)
WITH new, old
CALL (new) {  // a new statement's embedding, in 32-bit floats as ingestion writes them (ingest/merge_concepts)
  WITH new WHERE new.embedding IS NULL
  CALL db.create.setNodeVectorProperty(new, 'embedding', $embedding)
}
CALL (new, old) {
  WITH new, head([(old)-[:PROVEN_BY]->(e:Episode {space: $space}) | e.user]) AS user
  MERGE (src:Source {space: $space, id: $source_id})
    ON CREATE SET src.recorded_at = datetime(), src.kind = 'correction', src.external_id = 'correction',
                  src.title = 'corrections', src.user = user
  MERGE (ep:Episode {space: $space, id: $episode_id})
    ON CREATE SET ep.recorded_at = datetime(), ep.source_id = src.id, ep.seq = 0, ep.external_id = $episode_external_id,
                  ep.text = $episode_text, ep.occurred_at = datetime(), ep.user = src.user
  MERGE (ep)-[:PART_OF]->(src)
  MERGE (new)-[:PROVEN_BY]->(ep)
  WITH ep WHERE ep.embedding IS NULL
  CALL db.create.setNodeVectorProperty(ep, 'embedding', $embedding)
}
CALL (new, old) {
  OPTIONAL MATCH (old)-[:MENTIONS]->(c:Concept {space: $space})
  WITH new, collect(c) AS inherited
  OPTIONAL MATCH (named:Concept {space: $space})
  WHERE named.key IN $keys
  WITH new, inherited, collect(named) AS named
  WITH new, inherited + named AS concepts
  UNWIND concepts AS c
  MERGE (new)-[:MENTIONS]->(c)
  RETURN collect(DISTINCT c.id) AS concept_ids
}
RETURN new.id AS id, concept_ids
