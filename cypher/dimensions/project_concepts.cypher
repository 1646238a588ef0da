// Cypher projection of one space's concept association graph (undirected, weighted).
MATCH (a:Concept {space: $space})-[r:ASSOCIATED]->(b:Concept {space: $space})
RETURN gds.graph.project($graph_name, a, b, {relationshipProperties: {weight: r.weight}},
                         {undirectedRelationshipTypes: ['*']})
