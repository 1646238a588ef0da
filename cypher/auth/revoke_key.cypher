// Revoke a key of this space (a key of another space is not found) on behalf of the key $by (null: the operator or
// the admin, who may revoke any key). A key may revoke itself and the keys minted from it; an owner key, any key of
// the space but those it was minted from. Revoking another key revokes every key minted from it too (a leaked key's
// offspring go with it); a key revoking itself (rotation) leaves the keys it minted working.
// MINTED_BY leaves each key at most once and always points to an older key: the chains walked here are trees.
MATCH (k:ApiKey {space: $space, id: $key_id})
OPTIONAL MATCH (by:ApiKey {space: $space, id: $by})
WITH k, by, $by IS NULL AS operator, by IS NOT NULL AND k = by AS itself
WITH k, itself,
     operator OR itself OR EXISTS { (k)-[:MINTED_BY*1..]->(by) }
     OR (by IS NOT NULL AND coalesce(by.role, 'owner') = 'owner' AND NOT EXISTS { (by)-[:MINTED_BY*1..]->(k) }) AS allowed
FOREACH (_ IN CASE WHEN allowed THEN [1] ELSE [] END | SET k.revoked_at = coalesce(k.revoked_at, datetime()))
WITH k, allowed,
     [(d:ApiKey {space: $space})-[:MINTED_BY*1..]->(k) WHERE allowed AND NOT itself AND d.revoked_at IS NULL | d] AS offspring
FOREACH (d IN offspring | SET d.revoked_at = datetime())
WITH k, allowed, offspring
OPTIONAL MATCH (k)-[:MINTED_BY]->(minter:ApiKey)
RETURN k.id AS id, k.label AS label, coalesce(k.role, 'owner') AS role, minter.id AS minted_by,
       k.created_at AS created_at, k.revoked_at AS revoked_at, allowed, [d IN offspring | d.id] AS also_revoked
