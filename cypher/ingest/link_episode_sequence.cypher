// NEXT links between consecutive episodes of a source.
UNWIND $pairs AS pair
MATCH (a:Episode {space: $space, id: pair.prev}), (b:Episode {space: $space, id: pair.next})
MERGE (a)-[:NEXT]->(b)
