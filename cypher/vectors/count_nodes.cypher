// How many nodes of one label ({label}, graph/vector_export.py) a memory space holds.
MATCH (n:{label} {space: $space})
RETURN count(n) AS n
