// A proposition's lineage: the current proposition standing for it, and what it superseded (nearest first).
MATCH (p:Proposition {space: $space, id: $id})
USING INDEX p:Proposition(space, id)
OPTIONAL MATCH (head:Proposition)-[:SUPERSEDES*1..20]->(p)
WHERE head.status = 'active'
WITH p, CASE WHEN p.status = 'active' THEN p.id ELSE min(head.id) END AS current
OPTIONAL MATCH path = (p)-[:SUPERSEDES*1..20]->(older:Proposition)
WITH p, current, older, min(length(path)) AS depth, collect(last(relationships(path))) AS links
WITH p, current, older, depth, links[0] AS link ORDER BY depth, older.id
RETURN p.id AS id, p.status AS status, current,
       collect({id: older.id, text: older.text, status: older.status, reason: link.reason,
                replaced_by: startNode(link).id, valid_from: older.valid_from, valid_to: older.valid_to,
                expired_at: older.expired_at}) AS replaced
