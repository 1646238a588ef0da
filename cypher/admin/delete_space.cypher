// Remove every node of a space, in batches (auto-commit transaction only).
MATCH (n {space: $space})
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
