// Episodes written again with a different text (same source, same turn or position), or whose knowledge an earlier
// version of extraction drew ($extraction, engram/extraction/base.py EXTRACTION_VERSION; `engram reextract`): the
// knowledge drawn from them loses its PROVEN_BY links, before the episodes take their new text and version; the new
// knowledge links them again. A user's correction keeps its link to an episode whose text did not change. Returns the
// knowledge that lost a link: what is then proven by no episode is retired (ingest/unproven_knowledge). Identical
// text under the same version unlinks nothing, so re-ingesting a record unchanged is a no-op.
UNWIND $episodes AS row
MATCH (e:Episode {space: $space, id: row.id})
USING INDEX e:Episode(space, id)
WHERE e.text <> row.text OR coalesce(e.extracted_by, '') <> $extraction
MATCH (k {space: $space})-[r:PROVEN_BY]->(e)
WHERE (k:Proposition OR k:Prescription) AND (e.text <> row.text OR coalesce(k.origin, '') <> 'correction')
DELETE r
RETURN collect(DISTINCT k.id) AS knowledge_ids
