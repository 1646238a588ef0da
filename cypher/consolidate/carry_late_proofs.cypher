// Proofs that reached a replaced proposition after it was replaced (an ingest of the same statement running
// concurrently or later MERGEs onto the old node) move on to the current proposition that stands for it.
// A link written without carrying (a revision: the old turn does not prove the new value) carries none later.
// Every link of the chain ends in the space: no proof is carried over a foreign node.
// DISTINCT (head, old) pairs: a breadth-first expansion, not an enumeration of every path (see lineage.cypher).
MATCH (old:Proposition {space: $space, status: 'superseded'})
USING INDEX old:Proposition(space, status)
MATCH (head:Proposition {space: $space})-[links:SUPERSEDES*1..10]->(old)
WHERE head.status = 'active'
  AND all(r IN links WHERE coalesce(r.carry, r.reason IN $reasons) AND endNode(r).space = $space)
WITH DISTINCT head, old
MATCH (old)-[:PROVEN_BY]->(e:Episode {space: $space})
WHERE NOT (head)-[:PROVEN_BY]->(e)
WITH head, e, min(old.id) AS inherited_from
CREATE (head)-[:PROVEN_BY {inherited_from: inherited_from}]->(e)
RETURN count(*) AS carried
