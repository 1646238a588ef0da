// Whether a space (or a user's partition) exists.
OPTIONAL MATCH (s:Space {space: $space, id: $space})
RETURN s IS NOT NULL AS exists
