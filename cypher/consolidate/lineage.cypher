// A proposition's lineage: the current proposition standing for it, and what it superseded (nearest first).
// Merges that share ancestors give many paths between two propositions, exponentially many with the depth of the
// history, so nothing here enumerates paths or leaves it to the planner not to: APOC's breadth-first traversals
// visit each proposition once (NODE_GLOBAL), and the spanning tree's path to a proposition is a shortest one, whose
// last link says what replaced it. Each replaced proposition comes with the properties of the atomic fact it states
// (the API's HistoryStep.fact; graph/consolidation/lineage.py leaves them out).
MATCH (p:Proposition {space: $space, id: $id})
USING INDEX p:Proposition(space, id)
CALL (p) {
  CALL apoc.path.subgraphNodes(p, {relationshipFilter: '<SUPERSEDES', labelFilter: '+Proposition', maxLevel: 20})
    YIELD node
  WITH node WHERE node <> p AND node.space = $space AND node.status = 'active'
  RETURN min(node.id) AS head
}
WITH p, CASE WHEN p.status = 'active' THEN p.id ELSE head END AS current
CALL (p) {
  CALL apoc.path.spanningTree(p, {relationshipFilter: 'SUPERSEDES>', labelFilter: '+Proposition', maxLevel: 20, bfs: true})
    YIELD path
  WITH path WHERE length(path) > 0 AND all(n IN nodes(path) WHERE n.space = $space)
  WITH last(nodes(path)) AS older, length(path) AS depth, last(relationships(path)) AS link
  ORDER BY depth, older.id
  RETURN collect({id: older.id, text: older.text, status: older.status, reason: link.reason,
                  replaced_by: startNode(link).id, valid_from: older.valid_from, valid_to: older.valid_to,
                  expired_at: older.expired_at,
                  fact: older {.subject, .slot, .object, .value_type, .aspect, .polarity, .ends}}) AS replaced
}
RETURN p.id AS id, p.status AS status, current, replaced
