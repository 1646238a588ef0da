// The episodes holding a statement whose own time falls in one of $windows: the statement's time (valid_from, dated
// by its words at ingestion) is none of the times it was told ("I cleaned my sneakers last month", told weeks later;
// "I went to the Met today", resolved to its day; a statement told twice keeps its first telling's time). Those dated
// in the days a window names ({core_start, core_end}) first, then around them ({start, end}); each group closest to
// the query first, at most $k. Only dated statements are scanned, a small share of a space's knowledge.
UNWIND $windows AS window
MATCH (d:Proposition {space: $space})-[:PROVEN_BY]->(e:Episode {space: $space})
WHERE d.valid_from >= window.start AND d.valid_from < window.end
  AND NOT EXISTS { (d)-[:PROVEN_BY]->(told:Episode) WHERE told.occurred_at = d.valid_from }
  AND ($as_of IS NULL OR (d.recorded_at <= $as_of AND e.recorded_at <= $as_of))
WITH e, max(CASE WHEN d.valid_from >= window.core_start AND d.valid_from < window.core_end THEN 2 ELSE 1 END) AS stated
WITH e, stated, vector.similarity.cosine(e.embedding, $vector) AS score
ORDER BY stated DESC, score DESC, e.id
LIMIT $k
OPTIONAL MATCH (p:Proposition {space: $space})-[:PROVEN_BY]->(e)
WITH e, score, stated, p, CASE WHEN $as_of IS NULL THEN p.status = 'active'
     ELSE p.recorded_at <= $as_of AND (p.expired_at IS NULL OR p.expired_at > $as_of) END AS current,
     $as_of IS NULL OR p.recorded_at <= $as_of AS known
WITH e, score, stated, collect(CASE WHEN current THEN p.id END) AS propositions,
     count(CASE WHEN known THEN p END) AS knowledge
OPTIONAL MATCH (r:Prescription {space: $space})-[:PROVEN_BY]->(e)
WHERE r.status = 'active' AND ($as_of IS NULL OR r.recorded_at <= $as_of)
WITH e, score, stated, propositions, knowledge, collect(r.id) AS prescriptions
ORDER BY stated DESC, score DESC, e.id
RETURN collect({id: e.id, score: score, propositions: propositions, prescriptions: prescriptions,
                knowledge: knowledge + size(prescriptions)}) AS rows
