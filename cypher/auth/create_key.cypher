// A new API key of an existing space, with its role and the key that minted it (none when the operator or the
// admin issued it), unless the space holds $max_active unrevoked keys already (0: no cap). Only the hash of its
// secret is stored. Writing the space first takes its lock, so concurrent mints are counted one after another.
MATCH (s:Space {space: $space, id: $space})
SET s.keys_minted = coalesce(s.keys_minted, 0) + 1
WITH s, COUNT { (a:ApiKey {space: $space})-[:OF]->(s) WHERE a.revoked_at IS NULL } AS active
OPTIONAL MATCH (m:ApiKey {space: $space, id: $minted_by})
FOREACH (_ IN CASE WHEN $max_active = 0 OR active < $max_active THEN [1] ELSE [] END |
  MERGE (k:ApiKey {space: $space, id: $key_id})
    ON CREATE SET k.hash = $hash, k.label = $label, k.role = $role, k.created_at = datetime()
  MERGE (k)-[:OF]->(s)
  FOREACH (__ IN CASE WHEN m IS NULL THEN [] ELSE [1] END | MERGE (k)-[:MINTED_BY]->(m)))
WITH active
OPTIONAL MATCH (k:ApiKey {space: $space, id: $key_id})
OPTIONAL MATCH (k)-[:MINTED_BY]->(minter:ApiKey)
RETURN active, k.id AS id, k.label AS label, coalesce(k.role, 'owner') AS role, minter.id AS minted_by,
       k.created_at AS created_at, k.revoked_at AS revoked_at
