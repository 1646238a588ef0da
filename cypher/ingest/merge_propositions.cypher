// Lookups name the (space, id) constraint index: otherwise the planner may pick the single-property
// `space` range index and filter every node of the space by id.
// Propositions with provenance. A statement already known gains the new PROVEN_BY links only.
UNWIND $propositions AS p
MERGE (n:Proposition {space: $space, id: p.id})
  ON CREATE SET n.recorded_at = datetime(), n.status = 'active', n.valid_from = p.valid_from,
                n.text = p.text, n.subject = p.subject, n.predicate = p.predicate, n.object = p.object,
                n.slot = p.slot, n.value_type = p.value_type, n.aspect = p.aspect, n.polarity = p.polarity,
                n.ends = p.ends, n.adds = p.adds, n.renews = p.renews, n.frame = p.frame,
                n.confidence = p.confidence, n.importance = p.importance
  // Drawn again by a later version of extraction (engram reextract): the fact as it reads it now; consolidation
  // then passes slots on again (consolidate/subject_facts). Status and times stay as memory holds them.
  ON MATCH SET n.subject = p.subject, n.predicate = p.predicate, n.object = p.object, n.slot = p.slot,
               n.value_type = p.value_type, n.aspect = p.aspect, n.polarity = p.polarity, n.ends = p.ends,
               n.adds = p.adds, n.renews = p.renews, n.frame = p.frame
WITH n, p
CALL (n, p) {  // a new statement's embedding, in 32-bit floats as in ingest/merge_concepts
  WITH n, p WHERE n.embedding IS NULL
  CALL db.create.setNodeVectorProperty(n, 'embedding', p.embedding)
}
UNWIND p.episode_ids AS episode_id
MATCH (e:Episode {space: $space, id: episode_id})
USING INDEX e:Episode(space, id)
MERGE (n)-[:PROVEN_BY]->(e)
