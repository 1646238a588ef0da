// Holds $megabytes MiB by Neo4j's count (one 1 MiB string, collected that many times; the copies are one object, so
// the heap barely moves): a read that goes over db.memory.transaction.max when asked, for proving how that is told.
WITH apoc.text.repeat('x', 1048576) AS text
UNWIND range(1, $megabytes) AS i
WITH collect(text) AS held
RETURN size(held) AS megabytes
