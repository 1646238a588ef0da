// A new API key of an existing space; only the hash of its secret is stored.
MATCH (s:Space {space: $space, id: $space})
MERGE (k:ApiKey {space: $space, id: $key_id})
  ON CREATE SET k.hash = $hash, k.label = $label, k.created_at = datetime()
MERGE (k)-[:OF]->(s)
RETURN k.id AS id, k.label AS label, k.created_at AS created_at, k.revoked_at AS revoked_at
