// Rebuild the ASSOCIATED edges touching the given concepts from current co-mentions: count = active
// propositions mentioning both. Recomputed, never incremented, so a redelivered job or a forget leaves the same
// counts. The weight, count * idf(a) * idf(b), is computed where it is read, so it never goes stale when idf moves.
UNWIND $concept_ids AS concept_id
WITH DISTINCT concept_id
MATCH (c:Concept {space: $space, id: concept_id})
USING INDEX c:Concept(space, id)
OPTIONAL MATCH (c)-[old:ASSOCIATED]-(:Concept {space: $space})  // an edge into another space is not this space's
DELETE old
WITH DISTINCT c
MATCH (c)<-[:MENTIONS]-(p:Proposition {space: $space})-[:MENTIONS]->(o:Concept {space: $space})
WHERE p.status = 'active' AND o <> c
WITH c, o, count(p) AS together
WITH CASE WHEN c.id < o.id THEN c ELSE o END AS a, CASE WHEN c.id < o.id THEN o ELSE c END AS b, together
WITH DISTINCT a, b, together
MERGE (a)-[r:ASSOCIATED]->(b)
SET r.count = together
RETURN count(r) AS edges
