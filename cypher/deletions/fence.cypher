// Taken first by every write of memory, in the write's own transaction: the fence of its space, shared (a deletion
// takes it exclusively while it records itself), then the deletions of this memory space (or of its whole space) that
// work begun at $since must obey: those that started after it, and those still running.
MERGE (f:WriteFence {root: $root})
WITH f
CALL apoc.lock.read.nodes([f])
OPTIONAL MATCH (d:Deletion {root: $root})
  WHERE (d.memory_space = $memory_space OR (d.with_users AND d.memory_space = $root))
    AND (d.started_at > $since OR d.finished_at IS NULL)
RETURN d {.id, .whole, .scope, .episode_ids, .source_ids, .started_at, .finished_at} AS deletion
ORDER BY d.started_at
