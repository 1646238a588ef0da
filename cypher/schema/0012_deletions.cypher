// 0012: deletions that hold against work in flight (graph/deletions.py). One write fence per space, taken shared by
// every write of memory and exclusively by a deletion while it records itself; the deletion records are read by the
// writes of work that began before them.
CREATE CONSTRAINT write_fence_space IF NOT EXISTS FOR (f:WriteFence) REQUIRE f.root IS UNIQUE;
CREATE RANGE INDEX deletion_root IF NOT EXISTS FOR (d:Deletion) ON (d.root, d.started_at);
CREATE RANGE INDEX deletion_id IF NOT EXISTS FOR (d:Deletion) ON (d.id);
