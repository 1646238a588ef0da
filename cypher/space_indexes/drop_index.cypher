// Drops an index of a space's own ({index}: a name derived from a hash of the space, see create_vector_index).
DROP INDEX {index} IF EXISTS
