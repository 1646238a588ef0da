// Accommodated keys. An existing key keeps its name and embedding (first writer wins).
// Embeddings are stored as 32-bit floats (db.create.setNodeVectorProperty; SET would store 64-bit ones): half
// the bytes for every exact scan to read, and no loss, since the model computes them in 32 bits.
UNWIND $concepts AS c
MERGE (k:Concept {space: $space, id: c.id})
  ON CREATE SET k.key = c.key, k.name = c.name, k.df = 0, k.created_at = datetime()
WITH k, c
CALL (k, c) {
  WITH k, c WHERE k.embedding IS NULL
  CALL db.create.setNodeVectorProperty(k, 'embedding', c.embedding)
}
