// Recall searches the space's own indexes from now on (recall/space_size reads this).
MATCH (s:Space {space: $space, id: $space})
SET s.own_indexes_ready = true
