// The deletion is done: work begun after $finished_at is a new life of its scope (deletions/fence).
MATCH (d:Deletion {id: $id})
SET d.finished_at = $finished_at
