// Who told each of the space's current propositions: the speakers of the episodes that prove it (revisions.py reads
// a statement without a subject as its speaker's, and revises only what a common speaker told).
MATCH (p:Proposition {space: $space, status: 'active'})-[:PROVEN_BY]->(e:Episode {space: $space})
WHERE e.speaker IS NOT NULL
RETURN p.id AS id, collect(DISTINCT e.speaker) AS speakers
ORDER BY id
