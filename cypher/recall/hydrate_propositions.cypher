UNWIND $items AS item
MATCH (p:Proposition {space: $space, id: item.id})
USING INDEX p:Proposition(space, id)
// $scope (engram/scope.py ScopeFilter.properties; empty: no filter): only proofs whose scope labels match, and
// only items with one: a recall filtered by session, agent or metadata never returns, nor shows, another's.
OPTIONAL MATCH (p)-[:PROVEN_BY]->(e:Episode {space: $space})
WHERE all(key IN keys($scope) WHERE e[key] = $scope[key])
WITH item, p, e ORDER BY e.occurred_at, e.seq, e.id
// How much knowledge the proving utterance yielded (the most focused one's, when several prove it): the degree
// store answers the count without reading the relationships.
WITH item, p, collect(e {.id, .external_id, .source_id, .speaker, .text, occurred_at: toString(e.occurred_at)}) AS provenance,
     min(CASE WHEN e IS NOT NULL THEN COUNT { (e)<-[:PROVEN_BY]-() } END) AS statements
WHERE size(keys($scope)) = 0 OR size(provenance) > 0
// A replaced statement (a revision's stays a candidate: recall/candidate_proposition) says so, as memory knew it at
// $as_of: the id of what replaced it, and when it stopped holding.
WITH item, p, provenance, statements,
     p.status = 'superseded' AND ($as_of IS NULL OR coalesce(p.valid_to, p.expired_at) <= $as_of)
       AND ($known_at IS NULL OR p.expired_at <= $known_at) AS replaced
// Times as ISO strings: the Python driver's temporal hydration cost more than the rest of a recall's rows.
RETURN collect({
  id: p.id, text: p.text, valid_from: toString(p.valid_from), importance: coalesce(p.importance, 0.5),
  confidence: coalesce(p.confidence, 0.7), provenance: provenance, statements: coalesce(statements, 1),
  similarity: coalesce(item.similarity, vector.similarity.cosine(p.embedding, $vector)),
  superseded_by: CASE WHEN replaced THEN p.superseded_by END, valid_to: CASE WHEN replaced THEN toString(p.valid_to) END
}) AS rows
