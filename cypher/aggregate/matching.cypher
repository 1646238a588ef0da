// Every current statement of the space that matches an aggregate question (graph/aggregate/): its vector score to the
// question at least $min_similarity with a word starting as one of the question's target words does ($terms: each
// word's lower-case forms, a stem and irregular forms), or holding at least $min_term_share of those words, or a score of at least $min_similarity_alone.
// A question (confidence below $min_confidence) asserts no event. Not a top-k sample: all of them, up to the safety cap $cap, closest first. Only statements an
// episode in $scope proves (told by one of $speakers where given), dated by their own words (valid_from) or else
// by when they were told (`dated`: by their own words, another day than told), within one of $windows ({start, end}) where the question
// names a time.
MATCH (p:Proposition {space: $space})
WHERE p.embedding IS NOT NULL
  AND CASE WHEN $as_of IS NULL AND $known_at IS NULL THEN p.status = 'active'
      ELSE ($as_of IS NULL OR (coalesce(p.valid_from, p.recorded_at) <= $as_of AND coalesce(p.valid_to, p.expired_at, $as_of + duration('P1D')) > $as_of))
           AND ($known_at IS NULL OR (p.recorded_at <= $known_at AND (p.expired_at IS NULL OR p.expired_at > $known_at))) END
WITH p, vector.similarity.cosine(p.embedding, $vector) AS similarity,
     ' ' + replace(replace(replace(toLower(p.text), '(', ' '), '"', ' '), "'", ' ') AS words
WITH p, similarity,
     CASE WHEN size($terms) = 0 THEN 0.0
          ELSE toFloat(size([forms IN $terms WHERE any(form IN forms WHERE words CONTAINS ' ' + form)])) / size($terms)
     END AS term_share
WHERE coalesce(p.confidence, 0.7) >= $min_confidence
  AND ((similarity >= $min_similarity AND (size($terms) = 0 OR term_share > 0))
       OR (size($terms) > 0 AND term_share >= $min_term_share) OR similarity >= $min_similarity_alone)
MATCH (p)-[:PROVEN_BY]->(e:Episode {space: $space})
WHERE all(key IN keys($scope) WHERE e[key] = $scope[key])
  AND ($speakers IS NULL OR e.speaker IN $speakers)
  AND ($as_of IS NULL OR coalesce(e.occurred_at, e.recorded_at) <= $as_of) AND ($known_at IS NULL OR e.recorded_at <= $known_at)
WITH p, similarity, term_share, e ORDER BY e.occurred_at, e.seq, e.id
WITH p, similarity, term_share, coalesce(p.valid_from, min(e.occurred_at)) AS at, min(e.occurred_at) AS told,
     collect(e {.id, .external_id, .source_id, .speaker, .text, occurred_at: toString(e.occurred_at)}) AS provenance
WHERE $windows IS NULL OR any(window IN $windows WHERE at >= window.start AND at < window.end)
ORDER BY similarity DESC, p.id
LIMIT $cap
RETURN collect({
  id: p.id, text: p.text, similarity: similarity, term_share: term_share, at: toString(at),
  dated: p.valid_from IS NOT NULL AND date(p.valid_from) <> date(told),
  embedding: p.embedding, provenance: provenance
}) AS rows
