// A small space's episodes told within any of $windows ({start, end}: the days around a time the query names, "two
// weeks ago", "last month"), closest to the query first, at most $k, scanned exactly; each row carries the knowledge
// it proves (episode_knowledge). The episodes holding a statement dated in a window come from
// window_stated_episodes; a large space's told episodes from window_told_episodes, through the vector index.
UNWIND $windows AS window
MATCH (node:Episode {space: $space})
WHERE node.occurred_at >= window.start AND node.occurred_at < window.end
  AND ($as_of IS NULL OR coalesce(node.occurred_at, node.recorded_at) <= $as_of) AND ($known_at IS NULL OR node.recorded_at <= $known_at)
WITH DISTINCT node
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.id
LIMIT $k
// include recall/episode_knowledge
WITH node, score, row
ORDER BY score DESC, node.id
RETURN collect(row) AS rows
