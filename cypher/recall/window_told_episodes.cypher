// A large space's episodes told within any of $windows ({start, end}), closest to
// the query first, at most $k, through the vector index: of its $fetch nearest rows, those of this space told then
// (the searcher fetches more until $k come back or the index has no more to give, as dense_episodes does).
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH count(*) AS fetched,
     collect(CASE WHEN node.space = $space AND ($as_of IS NULL OR coalesce(node.occurred_at, node.recorded_at) <= $as_of) AND ($known_at IS NULL OR node.recorded_at <= $known_at)
                       AND any(window IN $windows WHERE node.occurred_at >= window.start
                                                    AND node.occurred_at < window.end)
                  THEN {node: node, score: score} END) AS own
CALL (own) {
  UNWIND own AS hit
  WITH hit.node AS node, hit.score AS score
  ORDER BY score DESC, node.id
  LIMIT $k
  // include recall/episode_knowledge
  WITH node, score, row
  ORDER BY score DESC, node.id
  RETURN collect(row) AS rows
}
RETURN fetched, rows
