// The keys of a space (never their hashes).
MATCH (k:ApiKey {space: $space})
OPTIONAL MATCH (k)-[:MINTED_BY]->(m:ApiKey {space: $space})
RETURN k.id AS id, k.label AS label, coalesce(k.role, 'owner') AS role, m.id AS minted_by, k.created_at AS created_at,
       k.revoked_at AS revoked_at
ORDER BY k.created_at
