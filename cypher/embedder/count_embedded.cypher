// How many of a space's nodes of one label ({label}, graph/reembed.py) carry a vector: the progress bar's total.
MATCH (n:{label} {space: $space})
WHERE n.embedding IS NOT NULL
RETURN count(n) AS n
