// NEXT links between consecutive episodes of a source.
UNWIND $pairs AS pair
MATCH (a:Episode {space: $space, id: pair.prev})
USING INDEX a:Episode(space, id)
MATCH (b:Episode {space: $space, id: pair.next})
USING INDEX b:Episode(space, id)
MERGE (a)-[:NEXT]->(b)
