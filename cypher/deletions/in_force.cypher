// The deletions of a memory space that work begun at $since must obey, read without the fence (a stage that writes
// nothing of memory checks these before it starts: deletions/fence is what a write checks).
MATCH (d:Deletion {root: $root})
  WHERE (d.memory_space = $memory_space OR (d.with_users AND d.memory_space = $root))
    AND (d.started_at > $since OR d.finished_at IS NULL)
RETURN d {.id, .whole, .scope, .episode_ids, .source_ids, .started_at, .finished_at} AS deletion
ORDER BY d.started_at
