// A key leaves the schema only when no knowledge mentions it any more (never a silent loss of links).
MATCH (k:Concept {space: $space, key: $key})
WHERE NOT (k)<-[:MENTIONS]-()
DETACH DELETE k
RETURN count(*) AS removed
