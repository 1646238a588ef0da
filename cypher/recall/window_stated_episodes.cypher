// The episodes holding a statement whose own time falls in one of $windows: the statement's time (valid_from, dated
// by its words at ingestion) is none of the times it was told ("I cleaned my sneakers last month", told weeks later;
// "I went to the Met today", resolved to its day; a statement told twice keeps its first telling's time). Those dated
// in the days a window names ({core_start, core_end}) first, then around them ({start, end}); each group closest to
// the query first, at most $k. Only dated statements are scanned, a small share of a space's knowledge.
UNWIND $windows AS window
MATCH (d:Proposition {space: $space})-[:PROVEN_BY]->(node:Episode {space: $space})
WHERE d.valid_from >= window.start AND d.valid_from < window.end
  AND NOT EXISTS { (d)-[:PROVEN_BY]->(told:Episode) WHERE told.occurred_at = d.valid_from }
  AND ($as_of IS NULL OR (coalesce(d.valid_from, d.recorded_at) <= $as_of AND coalesce(node.occurred_at, node.recorded_at) <= $as_of))
  AND ($known_at IS NULL OR (d.recorded_at <= $known_at AND node.recorded_at <= $known_at))
WITH node,
     max(CASE WHEN d.valid_from >= window.core_start AND d.valid_from < window.core_end THEN 2 ELSE 1 END) AS stated
WITH node, stated, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY stated DESC, score DESC, node.id
LIMIT $k
// include recall/episode_knowledge
WITH node, score, stated, row
ORDER BY stated DESC, score DESC, node.id
RETURN collect(row) AS rows
