// The whole-scope deletions on record (a space with its users, or one user's memory), oldest first: what the API's
// start-up sweep clears Redis of (app/api/erasure.py).
MATCH (d:Deletion) WHERE d.whole
RETURN d.memory_space AS memory_space, d.with_users AS with_users, d.started_at AS started_at
ORDER BY started_at
