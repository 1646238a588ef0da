UNWIND $intents AS i
MERGE (n:Intent {space: $space, id: i.id})
  ON CREATE SET n.text = i.text, n.embedding = i.embedding, n.recorded_at = datetime()
