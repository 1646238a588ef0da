// Revoke a key of this space (a key of another space is not found).
MATCH (k:ApiKey {space: $space, id: $key_id})
SET k.revoked_at = coalesce(k.revoked_at, datetime())
RETURN k.id AS id, k.label AS label, k.created_at AS created_at, k.revoked_at AS revoked_at
