// The import is done (its indexes online): the mark goes.
MATCH (s:Space {space: $space, id: $space})
REMOVE s.import_pending
