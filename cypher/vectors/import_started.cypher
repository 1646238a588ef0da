// An import of an export with vectors begins in an empty memory space: marked, so that a run stopped part-way can
// be resumed (graph/vector_import.py accepts a non-empty space only with this mark of the same export).
MERGE (s:Space {space: $space, id: $space})
  ON CREATE SET s.name = $space, s.created_at = datetime()
SET s.import_pending = $export_digest
