// Space and Sources of one write batch (idempotent: MERGE on the (space, id) constraint). A document's `title_key`
// (its title as a concept key) makes it the page of that concept (recall/entity_pages). Scope labels (user, agent,
// session) and the app's metadata (`meta_<key>` properties, engram/scope.py) are filters for list, export and forget.
MERGE (space:Space {space: $space, id: $space})
  ON CREATE SET space.name = $space, space.created_at = datetime()
WITH space
UNWIND $sources AS s
MERGE (src:Source {space: $space, id: s.id})
  ON CREATE SET src.recorded_at = datetime()
SET src.kind = s.kind, src.external_id = s.external_id, src.title = s.title, src.created_at = s.created_at,
    src.title_key = s.title_key, src.user = s.user, src.agent = s.agent, src.session = s.session
SET src += coalesce(s.metadata, {})
// A user's partition (engram/scope.py memory_space) names its user and space: how a space lists its users.
FOREACH (user IN CASE WHEN s.user IS NULL THEN [] ELSE [s.user] END |
  SET space.user = user, space.parent = split($space, '/')[0])
