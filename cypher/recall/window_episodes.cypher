// The episodes of the times a query names, at most $k. Each of $windows is the days around such a time ({start, end}:
// "two weeks ago", "last month" and a week either side) and the days it names itself ({core_start, core_end}).
// First come the episodes holding a statement that says it happened in the days named, then around them: the
// statement's own time (valid_from, dated by its words at ingestion) is none of the times it was told ("I cleaned my
// sneakers last month", told weeks later; "I went to the Met today", resolved to its day; a statement told twice
// keeps its first telling's time). Then the episodes told within a window. Each group closest to the query first.
// Each row carries the knowledge it proves as dense_episodes' do, and whether a statement's own time found it.
UNWIND $windows AS window
CALL (window) {
  MATCH (e:Episode {space: $space})
  WHERE e.occurred_at >= window.start AND e.occurred_at < window.end
  RETURN e, 0 AS stated
  UNION
  MATCH (d:Proposition {space: $space})-[:PROVEN_BY]->(e:Episode {space: $space})
  WHERE d.valid_from >= window.start AND d.valid_from < window.end
    AND NOT EXISTS { (d)-[:PROVEN_BY]->(told:Episode) WHERE told.occurred_at = d.valid_from }
    AND ($as_of IS NULL OR d.recorded_at <= $as_of)
  RETURN e, CASE WHEN d.valid_from >= window.core_start AND d.valid_from < window.core_end THEN 2 ELSE 1 END AS stated
}
WITH e, stated WHERE $as_of IS NULL OR e.recorded_at <= $as_of
WITH e, max(stated) AS stated
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
RETURN collect({id: e.id, score: score, stated: stated > 0, propositions: propositions, prescriptions: prescriptions,
                knowledge: knowledge + size(prescriptions)}) AS rows
