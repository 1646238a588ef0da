// A deletion records itself before it deletes anything, holding its space's write fence exclusively: a write that
// holds the fence (shared) commits first and is deleted with the rest; a later one reads this record
// (deletions/fence). Records older than $keep_after are dropped here: no work that old is still running.
MERGE (f:WriteFence {root: $root})
WITH f
CALL apoc.lock.nodes([f])
CREATE (d:Deletion {
  id: $id, root: $root, memory_space: $memory_space, whole: $whole, with_users: $with_users,
  scope: $scope, episode_ids: $episode_ids, source_ids: $source_ids,
  started_at: $started_at, finished_at: null
})
WITH d
CALL (d) {
  MATCH (old:Deletion {root: d.root}) WHERE old.started_at < $keep_after AND old.finished_at IS NOT NULL
  DELETE old
}
RETURN d.id AS id
