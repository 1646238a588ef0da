// A small space's episodes told within any of $windows ({start, end}: the days around a time the query names, "two
// weeks ago", "last month"), closest to the query first, at most $k, scanned exactly; each row carries the knowledge
// it proves as dense_episodes' do. The episodes holding a statement dated in a window come from
// window_stated_episodes; a large space's told episodes from window_told_episodes, through the vector index.
UNWIND $windows AS window
MATCH (e:Episode {space: $space})
WHERE e.occurred_at >= window.start AND e.occurred_at < window.end
  AND ($as_of IS NULL OR e.recorded_at <= $as_of)
WITH DISTINCT e
WITH e, vector.similarity.cosine(e.embedding, $vector) AS score
ORDER BY score DESC, e.id
LIMIT $k
OPTIONAL MATCH (p:Proposition {space: $space})-[:PROVEN_BY]->(e)
WITH e, score, p, CASE WHEN $as_of IS NULL THEN p.status = 'active'
     ELSE p.recorded_at <= $as_of AND (p.expired_at IS NULL OR p.expired_at > $as_of) END AS current,
     $as_of IS NULL OR p.recorded_at <= $as_of AS known
WITH e, score, collect(CASE WHEN current THEN p.id END) AS propositions, count(CASE WHEN known THEN p END) AS knowledge
OPTIONAL MATCH (r:Prescription {space: $space})-[:PROVEN_BY]->(e)
WHERE r.status = 'active' AND ($as_of IS NULL OR r.recorded_at <= $as_of)
WITH e, score, propositions, knowledge, collect(r.id) AS prescriptions
ORDER BY score DESC, e.id
RETURN collect({id: e.id, score: score, propositions: propositions, prescriptions: prescriptions,
                knowledge: knowledge + size(prescriptions)}) AS rows
