// Prescriptions with the intent they solve, their ordered parts and the episodes that prove them. A prescription
// written again under another intent (its trajectory's task changed) solves the new one only: its SOLVES to other
// intents of the space go, unless that intent stands for the new one (consolidation merged the new one into it).
// Returns the intents it left, for ingest/retire_unsolved_intents.
UNWIND $prescriptions AS p
MATCH (intent:Intent {space: $space, id: p.intent_id})
USING INDEX intent:Intent(space, id)
MERGE (n:Prescription {space: $space, id: p.id})
  ON CREATE SET n.recorded_at = datetime(), n.status = 'active'
SET n.text = p.text, n.terms = p.terms, n.steps = p.steps, n.return_score = p.return_score,
    n.part_intents = p.part_intents, n.part_ends = p.part_ends
MERGE (n)-[:SOLVES]->(intent)
WITH n, p, intent
CALL db.create.setNodeVectorProperty(n, 'embedding', p.embedding)  // 32-bit floats, as in ingest/merge_concepts
CALL (n, intent) {
  MATCH (n)-[old:SOLVES]->(other:Intent {space: $space})
  WHERE other <> intent AND NOT EXISTS { (other) (()-[:SUPERSEDES]->(:Intent {space: $space}))+ (intent) }
  DELETE old
  RETURN collect(other.id) AS left
}
CALL (n, p) {
  UNWIND p.episode_ids AS episode_id
  MATCH (e:Episode {space: $space, id: episode_id})
  USING INDEX e:Episode(space, id)
  MERGE (n)-[:PROVEN_BY]->(e)
}
UNWIND left AS intent_id
RETURN collect(DISTINCT intent_id) AS left_intents
