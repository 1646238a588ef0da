// With $speakers: only what they said (the over-fetch grows by their share of the index's rows).
// `fetched` below $fetch: the index had no more rows to give, so a larger fetch would find nothing new.
// Each hit comes with the current knowledge it proves and how much it ever proved (episode_knowledge).
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH count(*) AS fetched,
     collect(CASE WHEN node.space = $space AND ($as_of IS NULL OR coalesce(node.occurred_at, node.recorded_at) <= $as_of) AND ($known_at IS NULL OR node.recorded_at <= $known_at)
                       AND ($speakers IS NULL OR node.speaker IN $speakers)
                  THEN {node: node, score: score} END) AS own
CALL (own) {
  UNWIND own AS hit
  WITH hit.node AS node, hit.score AS score
  ORDER BY score DESC, node.id  // ties broken by id: the same memory answers the same way
  LIMIT $k
  // include recall/episode_knowledge
  WITH node, score, row
  ORDER BY score DESC, node.id
  RETURN collect(row) AS rows
}
RETURN fetched, rows
