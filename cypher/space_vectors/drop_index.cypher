// Drops a space's own vector index ({index}: a name derived from a hash of the space, see create_index).
DROP INDEX {index} IF EXISTS
