// A batch of an export's nodes of one label ({label}, graph/vector_import.py) into its memory space, with their
// vectors in 32-bit floats as at ingest (ingest/merge_concepts), and $labels: the space's own index labels where
// the import made its own indexes first (graph/space_indexes.py; else []), so each vector joins them here. MERGE on
// the (space, id) constraint: a resumed import writes nothing twice.
UNWIND $rows AS r
MERGE (n:{label} {space: $space, id: r.id})
SET n += r.props
SET n:$($labels)
WITH n, r WHERE r.embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(n, 'embedding', r.embedding)
