// A large space's episodes told within any of $windows ({start, end}), closest to
// the query first, at most $k, through the vector index: of its $fetch nearest rows, those of this space told then
// (the searcher fetches more until $k come back or the index has no more to give, as dense_episodes does).
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH count(*) AS fetched,
     collect(CASE WHEN node.space = $space AND ($as_of IS NULL OR node.recorded_at <= $as_of)
                       AND any(window IN $windows WHERE node.occurred_at >= window.start
                                                    AND node.occurred_at < window.end)
                  THEN {node: node, score: score} END) AS own
CALL (own) {
  UNWIND own AS hit
  WITH hit.node AS node, hit.score AS score
  ORDER BY score DESC, node.id
  LIMIT $k
  OPTIONAL MATCH (p:Proposition {space: $space})-[:PROVEN_BY]->(node)
  WITH node, score, p, CASE WHEN $as_of IS NULL THEN p.status = 'active'
       ELSE p.recorded_at <= $as_of AND (p.expired_at IS NULL OR p.expired_at > $as_of) END AS current,
       $as_of IS NULL OR p.recorded_at <= $as_of AS known
  WITH node, score, collect(CASE WHEN current THEN p.id END) AS propositions,
       count(CASE WHEN known THEN p END) AS knowledge
  OPTIONAL MATCH (r:Prescription {space: $space})-[:PROVEN_BY]->(node)
  WHERE r.status = 'active' AND ($as_of IS NULL OR r.recorded_at <= $as_of)
  WITH node, score, propositions, knowledge, collect(r.id) AS prescriptions
  ORDER BY score DESC, node.id
  RETURN collect({id: node.id, score: score, propositions: propositions, prescriptions: prescriptions,
                   knowledge: knowledge + size(prescriptions)}) AS rows
}
RETURN fetched, rows
