// The documents whose title the query names (schema 0010; keys longest first), each with its passages closest to the
// query (at most $per_page), ranked by the key's order, then by closeness.
UNWIND range(0, size($keys) - 1) AS rank
MATCH (s:Source {space: $space, title_key: $keys[rank]})
USING INDEX s:Source(space, title_key)
WHERE $as_of IS NULL OR s.recorded_at <= $as_of
WITH s, min(rank) AS rank, $keys[min(rank)] AS key
CALL (s) {
  MATCH (e:Episode)-[:PART_OF]->(s)
  WHERE $as_of IS NULL OR e.recorded_at <= $as_of
  WITH e, vector.similarity.cosine(e.embedding, $vector) AS score
  ORDER BY score DESC, e.id
  LIMIT $per_page
  RETURN e, score
}
WITH e, min(rank) AS rank, max(score) AS score, collect(DISTINCT key) AS keys
ORDER BY rank, score DESC, e.id
LIMIT $k
OPTIONAL MATCH (p:Proposition {space: $space})-[:PROVEN_BY]->(e)
WITH e, rank, score, keys, p, CASE WHEN $as_of IS NULL THEN p.status = 'active'
     ELSE p.recorded_at <= $as_of AND (p.expired_at IS NULL OR p.expired_at > $as_of) END AS current,
     $as_of IS NULL OR p.recorded_at <= $as_of AS known
WITH e, rank, score, keys, collect(CASE WHEN current THEN p.id END) AS propositions,
     count(CASE WHEN known THEN p END) AS knowledge
ORDER BY rank, score DESC, e.id
RETURN collect({id: e.id, score: score, keys: keys, propositions: propositions, prescriptions: [],
                knowledge: knowledge}) AS rows
