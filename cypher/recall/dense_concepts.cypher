// $index: the shared concept index, where other spaces may hold the same phrases (the same conversation in two
// spaces gives identical vectors), or the space's own (graph/space_indexes.py).
// The caller over-fetches until k hits of this space are in, or the window's lowest score (`floor`) is already
// below $min_score, so no qualifying hit lies further out.
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH min(score) AS floor, count(*) AS fetched,
     collect(CASE WHEN node.space = $space AND score >= $min_score
             THEN {id: node.id, key: node.key, idf: coalesce(node.idf, 1.0), df: coalesce(node.df, 0), score: score}
             END) AS hits
RETURN floor, fetched, hits
