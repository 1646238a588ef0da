// From now on writes give the space's new propositions, episodes and concepts its labels (ingest/label_written).
MERGE (s:Space {space: $space, id: $space})
  ON CREATE SET s.name = $space, s.created_at = datetime()
SET s.own_index_labelling = true
