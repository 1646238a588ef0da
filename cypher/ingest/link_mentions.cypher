UNWIND $mentions AS m
MATCH (n:Proposition {space: $space, id: m.proposition_id})
USING INDEX n:Proposition(space, id)
MATCH (c:Concept {space: $space, id: m.concept_id})
USING INDEX c:Concept(space, id)
MERGE (n)-[:MENTIONS]->(c)
