// A proposition's lineage: the current proposition standing for it, and what it superseded (nearest first).
// Merges that share ancestors give many paths between two propositions, exponentially many with the depth of the
// history, so no statement here enumerates paths: the ends are found with DISTINCT (a breadth-first expansion that
// visits each proposition once) and each step's link comes from one shortest path between its bound ends.
MATCH (p:Proposition {space: $space, id: $id})
USING INDEX p:Proposition(space, id)
OPTIONAL MATCH (head:Proposition {space: $space})-[:SUPERSEDES*1..20]->(p)
WHERE head.status = 'active'
WITH DISTINCT p, head
WITH p, CASE WHEN p.status = 'active' THEN p.id ELSE min(head.id) END AS current
OPTIONAL MATCH (p)-[:SUPERSEDES*1..20]->(older:Proposition {space: $space})
WHERE older <> p
WITH DISTINCT p, current, older
OPTIONAL MATCH path = shortestPath((p)-[:SUPERSEDES*1..20]->(older))
WITH p, current, older, length(path) AS depth, last(relationships(path)) AS link ORDER BY depth, older.id
RETURN p.id AS id, p.status AS status, current,
       collect({id: older.id, text: older.text, status: older.status, reason: link.reason,
                replaced_by: startNode(link).id, valid_from: older.valid_from, valid_to: older.valid_to,
                expired_at: older.expired_at}) AS replaced
