// Cypher projection of one space's concept association graph (undirected, weighted by co-mentions x idf x idf).
MATCH (a:Concept {space: $space})-[r:ASSOCIATED]->(b:Concept {space: $space})
WITH a, b, r.count * coalesce(a.idf, 0.0) * coalesce(b.idf, 0.0) AS weight
RETURN gds.graph.project($graph_name, a, b, {relationshipProperties: {weight: weight}},
                         {undirectedRelationshipTypes: ['*']})
