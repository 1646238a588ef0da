// Who told each of the space's current propositions: the speakers of the episodes that prove it (revisions.py reads
// a statement naming its one teller as the teller's, and revises only what a common speaker told), and the fewest
// statements an utterance proving it yielded (one of many statements of a long reply is an explanation, not a report).
MATCH (p:Proposition {space: $space, status: 'active'})-[:PROVEN_BY]->(e:Episode {space: $space})
WHERE e.speaker IS NOT NULL
RETURN p.id AS id, collect(DISTINCT e.speaker) AS speakers, min(COUNT { (e)<-[:PROVEN_BY]-() }) AS statements
ORDER BY id
