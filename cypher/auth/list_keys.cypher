// The keys of a space (never their hashes).
MATCH (k:ApiKey {space: $space})
RETURN k.id AS id, k.label AS label, k.created_at AS created_at, k.revoked_at AS revoked_at
ORDER BY k.created_at
