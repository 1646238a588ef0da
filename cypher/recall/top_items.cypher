// What recall reads about its best items once they are ranked, in one round trip: the concepts the top few mention
// (the controller's next hop) and the embeddings of the head (diversifying it: graph/recall/diversity.py).
CALL () {
  UNWIND $ids AS item_id
  MATCH (p:Proposition {space: $space, id: item_id})-[:MENTIONS]->(c:Concept {space: $space})
  USING INDEX p:Proposition(space, id)
  WITH DISTINCT c.id AS id, c.key AS key, coalesce(c.idf, 1.0) AS idf, coalesce(c.df, 0) AS df
  RETURN collect({id: id, key: key, idf: idf, df: df}) AS concepts
}
CALL () {
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
  RETURN collect({id: id, vector: vector}) AS vectors
}
RETURN concepts, vectors
