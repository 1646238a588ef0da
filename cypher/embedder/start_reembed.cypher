// A re-embedding starts (or starts over for another target): writes are refused from now on
// (ingest/record_embedder) and recall says it is under way, until finish_reembed.
MERGE (s:Space {space: $space, id: $space})
  ON CREATE SET s.name = $space, s.created_at = datetime()
SET s.reembed_to = $family, s.reembed_cursor = null
