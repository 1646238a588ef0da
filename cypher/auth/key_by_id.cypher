// The stored hash and space of a key, looked up by its public id (unique across spaces).
MATCH (k:ApiKey {id: $key_id})
RETURN k.space AS space, k.hash AS hash, k.revoked_at IS NOT NULL AS revoked
