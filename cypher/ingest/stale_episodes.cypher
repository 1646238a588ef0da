// Episodes of whole-record sources (a document's passages, a trajectory's steps) past the record's new length: a
// shortened document or trajectory written again leaves them stale, and they are forgotten with what only they prove.
UNWIND $sources AS row
MATCH (src:Source {space: $space, id: row.id})
USING INDEX src:Source(space, id)
MATCH (e:Episode {space: $space})-[:PART_OF]->(src)
WHERE e.seq >= row.episodes
RETURN collect(e.id) AS episode_ids
