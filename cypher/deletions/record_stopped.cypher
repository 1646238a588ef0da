// The jobs a whole-scope deletion stopped (ids only), so that asking for one says why it is gone.
MATCH (d:Deletion {id: $id})
SET d.stopped_jobs = coalesce(d.stopped_jobs, []) + $job_ids
