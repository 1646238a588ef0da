// Waits until the index is online (a new vector index is built in the background).
CALL db.awaitIndex($index, $timeout_s)
