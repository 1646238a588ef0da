// `fetched` below $fetch: the index had no more rows to give, so a larger fetch would find nothing new.
// Each hit comes with the knowledge it proves, as in dense_episodes.
CALL db.index.fulltext.queryNodes($index, $lucene, {limit: $fetch}) YIELD node, score
WITH count(*) AS fetched,
     collect(CASE WHEN node.space = $space AND ($as_of IS NULL OR coalesce(node.occurred_at, node.recorded_at) <= $as_of) AND ($known_at IS NULL OR node.recorded_at <= $known_at) THEN {node: node, score: score} END) AS own
// The space's own count of documents holding each query term, for scoring its hits with its own statistics
// (graph/recall/bm25.py): $queries is [{term, lucene}], each Lucene query scoped to the space (empty: the index's
// scores are kept). The scope phrase also matches a space whose name holds this one's parts as a run: only this
// space's nodes count.
CALL () {
  UNWIND $queries AS query
  CALL (query) {
    CALL db.index.fulltext.queryNodes($index, query.lucene) YIELD node
    WITH node WHERE node.space = $space
    RETURN count(node) AS holding
  }
  RETURN collect({term: query.term, holding: holding}) AS holding
}
CALL (own) {
  UNWIND own AS hit
  WITH hit.node AS node, hit.score AS score
  ORDER BY score DESC, node.id  // ties broken by id: the same memory answers the same way
  LIMIT $k
  // include recall/episode_knowledge
  WITH node, score, row
  ORDER BY score DESC, node.id
  RETURN collect(row {.*, text: node.text}) AS rows
}
RETURN fetched, rows, holding
