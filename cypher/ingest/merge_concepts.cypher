// Accommodated keys. An existing key keeps its name and embedding (first writer wins).
UNWIND $concepts AS c
MERGE (k:Concept {space: $space, id: c.id})
  ON CREATE SET k.key = c.key, k.name = c.name, k.embedding = c.embedding, k.df = 0, k.created_at = datetime()
