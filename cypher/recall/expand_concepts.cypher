// From activated concepts back to specific knowledge: per concept, the mentions closest to the query.
UNWIND $concepts AS a
MATCH (c:Concept {space: $space, id: a.id})
USING INDEX c:Concept(space, id)
CALL (c) {
  MATCH (c)<-[:MENTIONS]-(p:Proposition {space: $space})
  WHERE
    // include recall/candidate_proposition
  WITH p, vector.similarity.cosine(p.embedding, $vector) AS similarity
  ORDER BY similarity DESC, p.id LIMIT $per_concept
  RETURN p, similarity
}
WITH p.id AS id, sum(a.activation) AS activation, collect(c.key) AS via, max(similarity) AS similarity
RETURN collect({id: id, activation: activation, via: via, similarity: similarity}) AS rows
