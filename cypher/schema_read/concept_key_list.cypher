// The cognitive schema of a space as plain key strings (for the decoding trie; no embeddings).
MATCH (c:Concept {space: $space})
RETURN c.key AS key
