// The earlier versions of current propositions: what a revision (SUPERSEDES {reason: 'updated'}, written by
// consolidation's revisions step), a fact change ('changed', graph/consolidation/fact_changes.py) or a user's correction (SUPERSEDES {reason: 'correction'}) replaced, up to three versions back, nearest first. Recall returns each just below
// the version that replaced it: the current fact first, what held before still in sight. $as_of: only versions
// memory had recorded by then.
UNWIND $ids AS id
MATCH (current:Proposition {space: $space, id: id})
USING INDEX current:Proposition(space, id)
MATCH path = (current)-[:SUPERSEDES*1..3]->(earlier:Proposition {space: $space})
WHERE all(r IN relationships(path) WHERE r.reason IN ['updated', 'changed', 'correction'])
  AND ($as_of IS NULL OR coalesce(earlier.valid_from, earlier.recorded_at) <= $as_of) AND ($known_at IS NULL OR earlier.recorded_at <= $known_at)
WITH current, earlier, min(length(path)) AS depth
ORDER BY current.id, depth, earlier.id
RETURN collect({current: current.id, id: earlier.id, valid_to: toString(earlier.valid_to)}) AS rows
