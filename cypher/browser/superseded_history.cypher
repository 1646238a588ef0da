// The history of a fact: the chain of propositions that superseded one another ((newer)-[:SUPERSEDES]->(older)),
// from the current statement back to the first one, each with the episodes that prove it. Superseded propositions
// keep their text, status 'superseded' and expired_at: history is never deleted. Shows a graph; the table view
// lists the chain newest first.
// Parameters: $space (memory space); $fact (the id of any proposition in the chain, or words from its text).
MATCH (p:Proposition {space: $space})
WHERE p.id = $fact OR toLower(p.text) CONTAINS toLower($fact)
WITH p ORDER BY p.id = $fact DESC, COUNT { (p)-[:SUPERSEDES]-() } DESC LIMIT 1
// Merges that share ancestors give many paths, exponentially many with depth: the ends are found with DISTINCT (each
// proposition visited once) and one shortest path is drawn between each pair of ends.
MATCH (newest:Proposition {space: $space})-[:SUPERSEDES*0..50]->(p)
WITH DISTINCT newest
WHERE NOT EXISTS { (:Proposition {space: $space})-[:SUPERSEDES]->(newest) }
MATCH (newest)-[:SUPERSEDES*0..50]->(oldest:Proposition {space: $space})
WITH DISTINCT newest, oldest
WHERE NOT EXISTS { (oldest)-[:SUPERSEDES]->(:Proposition {space: $space}) }
MATCH history = shortestPath((newest)-[:SUPERSEDES*0..50]->(oldest))
WHERE all(n IN nodes(history) WHERE n.space = $space)
UNWIND nodes(history) AS step
OPTIONAL MATCH proof = (step)-[:PROVEN_BY]->(:Episode {space: $space})
RETURN history, step.text AS text, step.status AS status, step.recorded_at AS recorded_at,
       step.expired_at AS expired_at, collect(proof) AS provenance
