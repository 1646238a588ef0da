// The users of a space who have a memory of their own (engram/scope.py partitions), by name: those whose memory
// holds an episode (a partition that forget emptied episode by episode lists no user, as a whole-user forget).
MATCH (p:Space {parent: $space})
WHERE p.user IS NOT NULL AND EXISTS { MATCH (:Episode {space: p.space}) }
RETURN p.user AS user, p.space AS memory_space
ORDER BY user
