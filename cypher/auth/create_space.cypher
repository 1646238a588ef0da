// A memory space (idempotent). `created` says whether this call made it.
MERGE (s:Space {space: $space, id: $space})
  ON CREATE SET s.name = $space, s.created_at = datetime(), s.created_now = true
WITH s, coalesce(s.created_now, false) AS created
REMOVE s.created_now
RETURN s.id AS space, created
