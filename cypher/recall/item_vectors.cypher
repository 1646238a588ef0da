// The embeddings of ranked items, for diversifying the head of the ranking (graph/recall/diversity.py).
CALL () {
  UNWIND $propositions AS id
  MATCH (n:Proposition {space: $space, id: id})
  USING INDEX n:Proposition(space, id)
  RETURN n.id AS id, n.embedding AS vector
  UNION ALL
  UNWIND $prescriptions AS id
  MATCH (n:Prescription {space: $space, id: id})
  USING INDEX n:Prescription(space, id)
  RETURN n.id AS id, n.embedding AS vector
  UNION ALL
  UNWIND $episodes AS id
  MATCH (n:Episode {space: $space, id: id})
  USING INDEX n:Episode(space, id)
  RETURN n.id AS id, n.embedding AS vector
}
RETURN collect({id: id, vector: vector}) AS rows
