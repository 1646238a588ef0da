// A new key enters the schema (accommodation). An existing key keeps its name and embedding.
// Its embedding in 32-bit floats, as ingestion writes them (ingest/merge_concepts).
MERGE (k:Concept {space: $space, id: $id})
  ON CREATE SET k.key = $key, k.name = $name, k.df = 0, k.created_at = datetime()
WITH k
CALL (k) {
  WITH k WHERE k.embedding IS NULL
  CALL db.create.setNodeVectorProperty(k, 'embedding', $embedding)
}
RETURN k.key AS key
