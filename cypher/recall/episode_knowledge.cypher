// For episodes found directly: the current knowledge they prove, and how much they ever proved
// (an episode whose knowledge was superseded is not chit-chat and must not resurface in its place).
UNWIND $episode_ids AS episode_id
MATCH (e:Episode {space: $space, id: episode_id})
USING INDEX e:Episode(space, id)
OPTIONAL MATCH (k:Proposition)-[:PROVEN_BY]->(e)
WITH e, k,
     CASE WHEN $as_of IS NULL THEN k.status = 'active'
          ELSE k.recorded_at <= $as_of AND (k.expired_at IS NULL OR k.expired_at > $as_of) END AS current
WITH e.id AS episode_id, collect(CASE WHEN current THEN k.id END) AS proposition_ids, count(k) AS knowledge
RETURN collect({episode_id: episode_id, proposition_ids: proposition_ids, knowledge: knowledge}) AS rows
