// The current version of each replaced proposition recall returns (a revision's replaced statement stays a candidate:
// recall/candidate_proposition): the nearest proposition that supersedes it, along any chain of SUPERSEDES links
// (Lisbon -> Madrid -> Berlin: Berlin), that is current (or was at $as_of). Recall puts it just above the replaced
// statement (graph/recall/steps/current_versions.py).
UNWIND $ids AS id
MATCH (old:Proposition {space: $space, id: id})
USING INDEX old:Proposition(space, id)
MATCH path = (current:Proposition {space: $space})-[:SUPERSEDES*1..8]->(old)
WHERE CASE WHEN $as_of IS NULL AND $known_at IS NULL THEN current.status = 'active'
      ELSE ($as_of IS NULL OR (coalesce(current.valid_from, current.recorded_at) <= $as_of AND coalesce(current.valid_to, current.expired_at, $as_of + duration('P1D')) > $as_of))
           AND ($known_at IS NULL OR (current.recorded_at <= $known_at AND (current.expired_at IS NULL OR current.expired_at > $known_at))) END
WITH old, current, length(path) AS depth
ORDER BY old.id, depth, current.id
WITH old, head(collect(current.id)) AS current
RETURN collect({id: old.id, current: current}) AS rows
