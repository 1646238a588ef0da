CALL db.index.vector.queryNodes('concept_embedding', $fetch, $vector) YIELD node, score
WHERE node.space = $space AND score >= $min_score
RETURN node.id AS id, node.key AS key, coalesce(node.idf, 1.0) AS idf, coalesce(node.df, 0) AS df, score
ORDER BY score DESC, id
LIMIT $k
