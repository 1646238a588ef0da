// A batch of an export's nodes of one label ({label}, graph/vector_import.py) into its memory space, with their
// vectors in 32-bit floats as at ingest (ingest/merge_concepts). MERGE on the (space, id) constraint: a resumed
// import writes nothing twice.
UNWIND $rows AS r
MERGE (n:{label} {space: $space, id: r.id})
SET n += r.props
WITH n, r WHERE r.embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(n, 'embedding', r.embedding)
