// A statement merged into another stays an access path: its hit counts for the proposition that now stands
// for it (see dense_propositions).
// `fetched` below $fetch: the index had no more rows to give, so a larger fetch would find nothing new.
CALL db.index.fulltext.queryNodes($index, $lucene, {limit: $fetch}) YIELD node, score
WITH count(*) AS fetched,
     collect(CASE WHEN node.space = $space THEN {node: node, score: score} END) AS own
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
  CALL (node) {
    // A carrying update's hit finds the current value; a revision's (carry false) is a candidate itself.
    MATCH path = (p:Proposition {space: $space})-[:SUPERSEDES*0..8]->(node)
    WHERE all(r IN relationships(path) WHERE r.reason = 'merge' OR (r.reason = 'updated' AND coalesce(r.carry, true)))
      AND
      // include recall/candidate_proposition
    RETURN p AS current LIMIT 1
  }
  WITH current, max(score) AS score
  WITH current.id AS id, current.text AS text, score
  ORDER BY score DESC, id  // ties broken by id: the same memory answers the same way
  LIMIT $k
  RETURN collect({id: id, score: score, text: text}) AS rows
}
RETURN fetched, rows, holding
