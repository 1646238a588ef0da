// Supersede a current proposition by a user's correction, in one transaction. The corrected statement gets
// ingestion's id for its text (an existing node of that text becomes current again); it inherits the old one's
// proofs and concepts, and mentions the existing concepts its own keyphrases name. No row if the old one is no
// longer current. Proofs and concepts are inherited from the space only (an edge into another space carries nothing).
// Times are the world's: the old statement stops being true when the new one starts ($valid_from, else the time the
// old one speaks of, else when it was recorded); the server's clock is for expired_at/corrected_at only.
MATCH (old:Proposition {space: $space, id: $old_id})
USING INDEX old:Proposition(space, id)
WHERE old.status = 'active'
MERGE (new:Proposition {space: $space, id: $new_id})
  ON CREATE SET new.recorded_at = datetime(), new.text = $text, new.subject = $subject, new.predicate = $predicate,
                new.object = $object, new.valid_from = coalesce($valid_from, old.valid_from, old.recorded_at),
                new.importance = old.importance
SET new.status = 'active', new.expired_at = null, new.valid_to = null, new.confidence = 1.0,
    new.origin = 'correction', new.corrected_at = datetime(), new.correction_reason = $reason,
    old.status = 'superseded', old.expired_at = datetime(), old.superseded_by = new.id,
    old.valid_to = coalesce($valid_from, old.valid_from, old.recorded_at)
MERGE (new)-[r:SUPERSEDES]->(old)
  ON CREATE SET r.reason = 'correction', r.note = $reason, r.at = datetime()
WITH new, old
CALL (new) {  // a new statement's embedding, in 32-bit floats as ingestion writes them (ingest/merge_concepts)
  WITH new WHERE new.embedding IS NULL
  CALL db.create.setNodeVectorProperty(new, 'embedding', $embedding)
}
CALL (new, old) {
  MATCH (old)-[:PROVEN_BY]->(e:Episode {space: $space})
  WHERE NOT (new)-[:PROVEN_BY]->(e)
  CREATE (new)-[:PROVEN_BY {inherited_from: old.id}]->(e)
  RETURN count(e) AS carried
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
