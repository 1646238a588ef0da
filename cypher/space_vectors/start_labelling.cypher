// From now on writes give the space's new propositions and episodes its vector labels (ingest/label_written).
MERGE (s:Space {space: $space, id: $space})
  ON CREATE SET s.name = $space, s.created_at = datetime()
SET s.vector_labelling = true
