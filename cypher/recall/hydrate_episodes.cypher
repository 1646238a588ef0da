UNWIND $items AS item
MATCH (e:Episode {space: $space, id: item.id})
USING INDEX e:Episode(space, id)
WHERE all(key IN keys($scope) WHERE e[key] = $scope[key])  // $scope: only episodes whose scope labels match
RETURN collect({
  id: e.id, text: e.text, valid_from: toString(e.occurred_at), importance: 0.5, confidence: 0.6,
  statements: COUNT { (e)<-[:PROVEN_BY]-() },
  similarity: coalesce(item.similarity, vector.similarity.cosine(e.embedding, $vector)),
  provenance: [e {.id, .external_id, .source_id, .speaker, .text, occurred_at: toString(e.occurred_at)}]
}) AS rows
