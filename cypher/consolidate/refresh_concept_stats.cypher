// Document frequency and IDF of the given concepts over the space's active propositions;
// concepts no proposition mentions any more are removed (no orphan keys).
MATCH (active:Proposition {space: $space}) WHERE active.status = 'active'
WITH count(active) AS total
UNWIND $concept_ids AS concept_id
WITH DISTINCT total, concept_id  // a repeated id must not multiply the counts
MATCH (c:Concept {space: $space, id: concept_id})
USING INDEX c:Concept(space, id)
OPTIONAL MATCH (c)<-[:MENTIONS]-(p:Proposition {space: $space}) WHERE p.status = 'active'
WITH c, total, count(p) AS df
SET c.df = df, c.idf = CASE WHEN df > 0 THEN log(toFloat(total + 1) / df) ELSE null END
WITH c, df WHERE df = 0 AND NOT EXISTS { (c)<-[:MENTIONS]-({space: $space}) }
WITH collect(c) AS orphans, collect(c.key) AS keys
FOREACH (c IN orphans | DETACH DELETE c)
RETURN size(keys) AS removed, keys
