// The prescriptions of re-ingested trajectories that their extraction no longer writes (a trajectory is one whole
// prescription: those written when its subgoal segments were procedures of their own): deleted, with their edges.
// $sources: the trajectories' source ids; $keep: the prescription ids just written. Returns the intents they solved,
// for ingest/retire_unsolved_intents.
UNWIND $sources AS source_id
MATCH (:Source {space: $space, id: source_id})<-[:PART_OF]-(:Episode {space: $space})<-[:PROVEN_BY]-(p:Prescription)
WHERE NOT p.id IN $keep
WITH DISTINCT p
OPTIONAL MATCH (p)-[:SOLVES]->(i:Intent {space: $space})
WITH p, collect(i.id) AS intent_ids
DETACH DELETE p
WITH apoc.coll.flatten(collect(intent_ids)) AS intent_ids
RETURN apoc.coll.toSet(intent_ids) AS left_intents
