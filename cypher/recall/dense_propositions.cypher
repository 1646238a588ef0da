// Vector search cannot filter inside the index on Neo4j 5.26: over-fetch, then keep this space's current
// knowledge (or, with $as_of, what the graph held at that time). A statement merged into another (the same fact
// in other words) stays an access path: its hit counts for the proposition that now stands for it.
// $index: the shared index, or the space's own (graph/space_indexes.py), where nearly every row is of the space.
// `fetched` below $fetch: the index had no more rows to give, so a larger fetch would find nothing new.
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH count(*) AS fetched,
     collect(CASE WHEN node.space = $space THEN {node: node, score: score} END) AS own
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
  WITH current.id AS id, score
  ORDER BY score DESC, id  // ties broken by id: the same memory answers the same way
  LIMIT $k
  RETURN collect({id: id, score: score}) AS rows
}
RETURN fetched, rows
