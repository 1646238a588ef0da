// New vectors for a page of a space's nodes of one label ({label}, graph/reembed.py), 32-bit floats as at ingest;
// the space's cursor moves past them in the same transaction, so an interrupted re-embedding resumes after the
// last page written.
UNWIND $rows AS r
MATCH (n:{label} {space: $space, id: r.id})
USING INDEX n:{label}(space, id)
CALL db.create.setNodeVectorProperty(n, 'embedding', r.embedding)
WITH count(*) AS written
MATCH (s:Space {space: $space, id: $space})
SET s.reembed_cursor = $cursor
RETURN written
