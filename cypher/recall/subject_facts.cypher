// The facts memory holds about one subject (engram/facts/: a proposition with a frame), every version, each with how
// close it is to the question: recall answers a question about a state from the slot of the closest one
// (graph/recall/steps/facts.py). As of $as_of / $known_at where given; only proofs in $scope count.
MATCH (p:Proposition {space: $space})
WHERE toLower(p.subject) = $subject AND coalesce(p.frame, '') <> ''
  AND ($known_at IS NULL OR p.recorded_at <= $known_at)
  AND ($as_of IS NULL OR coalesce(p.valid_from, p.recorded_at) <= $as_of)
  AND EXISTS {
    MATCH (p)-[:PROVEN_BY]->(e:Episode {space: $space})
    WHERE all(key IN keys($scope) WHERE e[key] = $scope[key])
  }
WITH p,
     CASE WHEN $as_of IS NULL AND $known_at IS NULL THEN p.status = 'active'
     ELSE ($as_of IS NULL OR coalesce(p.valid_to, p.expired_at, $as_of + duration('P1D')) > $as_of)
          AND ($known_at IS NULL OR p.expired_at IS NULL OR p.expired_at > $known_at) END AS current
ORDER BY p.valid_from, p.id
RETURN collect({
  id: p.id, text: p.text, slot: coalesce(p.slot, ''), frame: p.frame, value: coalesce(p.object, ''), value_type: coalesce(p.value_type, ''), event: p.aspect = 'event',
  current: current, valid_from: toString(p.valid_from),
  similarity: CASE WHEN p.embedding IS NULL THEN 0.0 ELSE vector.similarity.cosine(p.embedding, $vector) END
}) AS rows
