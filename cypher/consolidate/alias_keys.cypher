// Concept keys that are aliases of one another (SAME_AS, either direction).
MATCH (a:Concept {space: $space})-[:SAME_AS]->(b:Concept)
RETURN a.key AS a, b.key AS b
