// The users of a space who have a memory of their own (engram/scope.py partitions), by name.
MATCH (p:Space {parent: $space})
WHERE p.user IS NOT NULL
RETURN p.user AS user, p.space AS memory_space
ORDER BY user
