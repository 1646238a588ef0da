// Concepts mentioned by knowledge that will survive a forget (its associations may change too).
MATCH (e:Episode {space: $space})<-[:PROVEN_BY]-(k:Proposition {space: $space})-[:MENTIONS]->(c:Concept {space: $space})
USING INDEX e:Episode(space, id)
WHERE e.id IN $episode_ids
RETURN collect(DISTINCT c.id) AS concept_ids
