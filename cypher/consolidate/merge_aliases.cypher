// SAME_AS from an alias key to its canonical key (idempotent); returns how many are new and how many there are.
CALL () {
  MATCH (:Concept {space: $space})-[r:SAME_AS]->(:Concept)
  RETURN count(r) AS before
}
CALL () {
  UNWIND $aliases AS a
  MATCH (alias:Concept {space: $space, id: a.alias})
  USING INDEX alias:Concept(space, id)
  MATCH (canonical:Concept {space: $space, id: a.canonical})
  USING INDEX canonical:Concept(space, id)
  WHERE NOT (canonical)-[:SAME_AS]->(alias)
  MERGE (alias)-[r:SAME_AS]->(canonical)
    ON CREATE SET r.reason = a.reason, r.score = a.score, r.at = datetime()
  RETURN count(r) AS linked
}
CALL () {
  MATCH (:Concept {space: $space})-[r:SAME_AS]->(:Concept)
  RETURN count(r) AS total
}
RETURN total - before AS added, total
