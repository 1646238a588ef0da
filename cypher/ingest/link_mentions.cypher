UNWIND $mentions AS m
MATCH (n:Proposition {space: $space, id: m.proposition_id}), (c:Concept {space: $space, id: m.concept_id})
MERGE (n)-[:MENTIONS]->(c)
