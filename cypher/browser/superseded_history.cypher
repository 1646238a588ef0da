// The history of a fact: the chain of propositions that superseded one another ((newer)-[:SUPERSEDES]->(older)),
// from the current statement back to the first one, each with the episodes that prove it. Superseded propositions
// keep their text, status 'superseded' and expired_at: history is never deleted. Shows a graph; the table view
// lists the chain newest first.
// Parameters: $space (memory space); $fact (the id of any proposition in the chain, or words from its text).
MATCH (p:Proposition {space: $space})
WHERE p.id = $fact OR toLower(p.text) CONTAINS toLower($fact)
WITH p ORDER BY p.id = $fact DESC, COUNT { (p)-[:SUPERSEDES]-() } DESC LIMIT 1
// Merges that share ancestors give many paths, exponentially many with depth, so nothing here enumerates paths or
// leaves it to the planner not to: APOC's breadth-first traversals visit each proposition once. The newest
// statements are those above the fact that nothing replaced; from each, the breadth-first spanning tree's path to
// every first statement (one that replaced nothing) is a shortest one.
CALL apoc.path.subgraphNodes(p, {relationshipFilter: '<SUPERSEDES', labelFilter: '+Proposition', maxLevel: 50})
  YIELD node AS newest
WITH newest WHERE newest.space = $space AND NOT EXISTS { (:Proposition {space: $space})-[:SUPERSEDES]->(newest) }
CALL apoc.path.spanningTree(newest,
  {relationshipFilter: 'SUPERSEDES>', labelFilter: '+Proposition', maxLevel: 50, bfs: true}) YIELD path
WITH path, last(nodes(path)) AS oldest
WHERE NOT EXISTS { (oldest)-[:SUPERSEDES]->(:Proposition {space: $space}) }
  AND all(n IN nodes(path) WHERE n.space = $space)
WITH path AS history
UNWIND nodes(history) AS step
OPTIONAL MATCH proof = (step)-[:PROVEN_BY]->(:Episode {space: $space})
RETURN history, step.text AS text, step.status AS status, step.recorded_at AS recorded_at,
       step.expired_at AS expired_at, collect(proof) AS provenance
