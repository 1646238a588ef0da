// A new key enters the schema (accommodation). An existing key keeps its name and embedding.
MERGE (k:Concept {space: $space, id: $id})
  ON CREATE SET k.key = $key, k.name = $name, k.embedding = $embedding, k.df = 0, k.created_at = datetime()
RETURN k.key AS key
