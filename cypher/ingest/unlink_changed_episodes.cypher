// Episodes written again with a different text (same source, same turn or position): the knowledge drawn from their
// old text loses its PROVEN_BY links to them, before the episodes take their new text; the new text's knowledge
// links them again. Returns the knowledge that lost a link: what is then proven by no episode is retired
// (ingest/unproven_knowledge). Identical text unlinks nothing, so re-ingesting a record unchanged is a no-op.
UNWIND $episodes AS row
MATCH (e:Episode {space: $space, id: row.id})
USING INDEX e:Episode(space, id)
WHERE e.text <> row.text
MATCH (k {space: $space})-[r:PROVEN_BY]->(e) WHERE k:Proposition OR k:Prescription
DELETE r
RETURN collect(DISTINCT k.id) AS knowledge_ids
