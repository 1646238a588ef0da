// The space's intents closest to the query through the shared vector index (a space with more intents than an
// exact scan serves), each with the active prescriptions that solve it, as in exact_intents.
// `fetched` below $fetch: the index had no more rows to give, so a larger fetch would find nothing new.
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH count(*) AS fetched, collect(CASE WHEN node.space = $space THEN {node: node, score: score} END) AS own
CALL (own) {
  UNWIND own AS hit
  WITH hit.node AS node, hit.score AS score
  ORDER BY score DESC, node.id
  LIMIT $k
  OPTIONAL MATCH (r:Prescription {space: $space})-[:SOLVES]->(node)
  WHERE coalesce(r.status, 'active') = 'active' AND ($known_at IS NULL OR r.recorded_at <= $known_at)
  WITH node, score, collect(r.id) AS prescriptions
  ORDER BY score DESC, node.id
  RETURN collect({id: node.id, score: score, prescriptions: prescriptions}) AS rows
}
RETURN fetched, rows
