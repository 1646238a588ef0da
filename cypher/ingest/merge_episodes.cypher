UNWIND $episodes AS e
MATCH (src:Source {space: $space, id: e.source_id})
USING INDEX src:Source(space, id)
MERGE (ep:Episode {space: $space, id: e.id})
  ON CREATE SET ep.recorded_at = datetime()
SET ep.source_id = e.source_id, ep.seq = e.seq, ep.external_id = e.external_id, ep.speaker = e.speaker,
    ep.text = e.text, ep.occurred_at = e.occurred_at, ep.observation = e.observation, ep.action = e.action,
    ep.reward = e.reward, ep.subgoal = e.subgoal, ep.image_caption = e.image_caption, ep.user = e.user,
    ep.agent = e.agent, ep.session = e.session, ep.extracted_by = $extraction
SET ep += coalesce(e.metadata, {})  // the app's metadata as `meta_<key>` properties (engram/scope.py)
MERGE (ep)-[:PART_OF]->(src)
WITH ep, e
CALL db.create.setNodeVectorProperty(ep, 'embedding', e.embedding)  // 32-bit floats, as in ingest/merge_concepts
