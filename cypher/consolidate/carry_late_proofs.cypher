// Proofs that reached a replaced proposition after it was replaced (an ingest of the same statement running
// concurrently or later MERGEs onto the old node) move on to the current proposition that stands for it.
MATCH (old:Proposition {space: $space, status: 'superseded'})
MATCH path = (head:Proposition)-[:SUPERSEDES*1..10]->(old)
WHERE head.status = 'active' AND all(r IN relationships(path) WHERE r.reason IN $reasons)
MATCH (old)-[:PROVEN_BY]->(e:Episode)
WHERE NOT (head)-[:PROVEN_BY]->(e)
WITH head, e, min(old.id) AS inherited_from
CREATE (head)-[:PROVEN_BY {inherited_from: inherited_from}]->(e)
RETURN count(*) AS carried
