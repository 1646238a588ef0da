// Space and Sources of one write batch (idempotent: MERGE on the (space, id) constraint). A document's `title_key`
// (its title as a concept key) makes it the page of that concept (recall/entity_pages).
MERGE (space:Space {space: $space, id: $space})
  ON CREATE SET space.name = $space, space.created_at = datetime()
WITH space
UNWIND $sources AS s
MERGE (src:Source {space: $space, id: s.id})
  ON CREATE SET src.recorded_at = datetime()
SET src.kind = s.kind, src.external_id = s.external_id, src.title = s.title, src.created_at = s.created_at,
    src.title_key = s.title_key
