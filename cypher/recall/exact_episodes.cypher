// A small space is scanned exactly instead of through the shared vector index: no over-fetch, no
// approximate misses when other spaces dominate the index. With $speakers: only what they said.
// Each hit comes with the knowledge it proves, as in dense_episodes.
// include recall/episode_scan
ORDER BY score DESC, node.id
LIMIT $k
// include recall/episode_knowledge
WITH node, score, row
ORDER BY score DESC, node.id
RETURN collect(row) AS rows
