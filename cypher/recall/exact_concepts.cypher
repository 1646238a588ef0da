// The space's concepts closest to $vector, scanned exactly: a small space's search, and a larger one's fallback when
// the shared concept index's capped over-fetch was filled by other spaces' near-identical vectors
// (graph/recall/neo4j_searcher.py).
MATCH (node:Concept {space: $space})
WHERE node.embedding IS NOT NULL
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
WHERE score >= $min_score
ORDER BY score DESC, node.id
LIMIT $k
RETURN collect({id: node.id, key: node.key, idf: coalesce(node.idf, 1.0), df: coalesce(node.df, 0), score: score})
       AS hits
