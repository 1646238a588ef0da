// Concept keys that are aliases of one another (SAME_AS, either direction), both of the space.
MATCH (a:Concept {space: $space})-[:SAME_AS]->(b:Concept {space: $space})
RETURN a.key AS a, b.key AS b
