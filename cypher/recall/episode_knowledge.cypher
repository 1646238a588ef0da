// Included by the episode searches (`// include recall/episode_knowledge`, graph/cypher.py): for an episode `node`
// found with `score`, the search's row: the current knowledge it proves and how much it ever proved (`Hit` in
// graph/recall/neo4j_searcher.py). Recall needs both, and a second round trip for them cost a statement a search.
CALL (node, score) {
  OPTIONAL MATCH (p:Proposition {space: $space})-[:PROVEN_BY]->(node)
  WITH p,
       // include recall/candidate_proposition
       AS current,
       ($as_of IS NULL OR coalesce(p.valid_from, p.recorded_at) <= $as_of)
       AND ($known_at IS NULL OR p.recorded_at <= $known_at) AS known  // what held, and memory had, by then
  WITH collect(CASE WHEN current THEN p.id END) AS propositions, count(CASE WHEN known THEN p END) AS knowledge
  // A trajectory step proves the prescriptions drawn from it (they have no later versions: current = active).
  OPTIONAL MATCH (r:Prescription {space: $space})-[:PROVEN_BY]->(node)
  WHERE r.status = 'active' AND ($known_at IS NULL OR r.recorded_at <= $known_at)
  WITH propositions, knowledge, collect(r.id) AS prescriptions
  RETURN {id: node.id, score: score, propositions: propositions, prescriptions: prescriptions,
          knowledge: knowledge + size(prescriptions)} AS row
}
