// The deletion of the caller's space (or of one of its users' memories) that stopped a job, if one did: a job it stopped
// is gone from Redis, and its id is kept here, without any of its text, for as long as the record is.
MATCH (d:Deletion {root: $root})
WHERE $job_id IN coalesce(d.stopped_jobs, [])
RETURN d.started_at AS started_at
ORDER BY started_at
LIMIT 1
