// Every memory space (each ingest MERGEs its Space node).
MATCH (s:Space)
RETURN s.id AS space
ORDER BY space
