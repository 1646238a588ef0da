UNWIND $items AS item
MATCH (p:Prescription {space: $space, id: item.id})
USING INDEX p:Prescription(space, id)
// $scope (engram/scope.py ScopeFilter.properties; empty: no filter): only proofs whose scope labels match, and
// only items with one: a recall filtered by session, agent or metadata never returns, nor shows, another's.
OPTIONAL MATCH (p)-[:PROVEN_BY]->(e:Episode {space: $space})
WHERE all(key IN keys($scope) WHERE e[key] = $scope[key])
WITH item, p, e ORDER BY e.occurred_at, e.seq, e.id
WITH item, p, collect(e {.id, .external_id, .source_id, .speaker, .text, occurred_at: toString(e.occurred_at)}) AS provenance
WHERE size(keys($scope)) = 0 OR size(provenance) > 0
RETURN collect({
  id: p.id, text: p.text, intent: head([(p)-[:SOLVES]->(i:Intent {space: $space}) | i.text]), valid_from: null, importance: (p.return_score - 1.0) / 9.0, confidence: 0.7,
  similarity: coalesce(item.similarity, vector.similarity.cosine(p.embedding, $vector)), provenance: provenance
}) AS rows
