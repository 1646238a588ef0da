UNWIND $prescriptions AS p
MATCH (intent:Intent {space: $space, id: p.intent_id})
USING INDEX intent:Intent(space, id)
MERGE (n:Prescription {space: $space, id: p.id})
  ON CREATE SET n.recorded_at = datetime(), n.status = 'active'
SET n.text = p.text, n.terms = p.terms, n.steps = p.steps, n.return_score = p.return_score, n.embedding = p.embedding
MERGE (n)-[:SOLVES]->(intent)
WITH n, p
UNWIND p.episode_ids AS episode_id
MATCH (e:Episode {space: $space, id: episode_id})
USING INDEX e:Episode(space, id)
MERGE (n)-[:PROVEN_BY]->(e)
