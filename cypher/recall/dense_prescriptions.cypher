// `fetched` below $fetch: the index had no more rows to give, so a larger fetch would find nothing new.
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH count(*) AS fetched,
     collect(CASE WHEN node.space = $space AND coalesce(node.status, 'active') = 'active'
                          AND ($known_at IS NULL OR node.recorded_at <= $known_at) THEN {node: node, score: score} END) AS own
CALL (own) {
  UNWIND own AS hit
  WITH hit.node AS node, hit.score AS score
  WITH node.id AS id, score
  ORDER BY score DESC, id
  LIMIT $k
  RETURN collect({id: id, score: score}) AS rows
}
RETURN fetched, rows
