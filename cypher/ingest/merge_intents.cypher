// Embeddings in 32-bit floats, as in ingest/merge_concepts.
UNWIND $intents AS i
MERGE (n:Intent {space: $space, id: i.id})
  ON CREATE SET n.text = i.text, n.recorded_at = datetime()
WITH n, i
CALL (n, i) {
  WITH n, i WHERE n.embedding IS NULL
  CALL db.create.setNodeVectorProperty(n, 'embedding', i.embedding)
}
