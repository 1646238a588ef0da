// The stored hash, space and role of a key, looked up by its public id (unique across spaces). Keys from before
// roles were the space's own keys: owners.
MATCH (k:ApiKey {id: $key_id})
RETURN k.space AS space, k.hash AS hash, k.revoked_at IS NOT NULL AS revoked, coalesce(k.role, 'owner') AS role
