// Included where a recall statement decides whether the proposition `p` may be returned (`// include
// recall/candidate_proposition`, graph/cypher.py): current knowledge (active; with $as_of, what held in the world then:
// valid from before it and not yet ended, the facts' own times; with $known_at, what memory had recorded by then and
// not yet expired, the server's times), or a statement a revision or a fact change replaced (SUPERSEDES {reason:
// 'updated' or 'changed', carry: false}: consolidation's revisions step, graph/consolidation/fact_changes.py): what its turn said stays found by its words, its episode and its concepts; recall puts the current
// version just above it (graph/recall/steps/current_versions.py). A merge or a carrying update is not: its survivor
// stands for it (the access path of dense_propositions). A boolean expression, in parentheses.
(CASE WHEN $as_of IS NULL AND $known_at IS NULL THEN p.status = 'active'
      ELSE ($as_of IS NULL OR (coalesce(p.valid_from, p.recorded_at) <= $as_of AND coalesce(p.valid_to, p.expired_at, $as_of + duration('P1D')) > $as_of))
           AND ($known_at IS NULL OR (p.recorded_at <= $known_at AND (p.expired_at IS NULL OR p.expired_at > $known_at))) END
 OR (($as_of IS NULL OR coalesce(p.valid_from, p.recorded_at) <= $as_of)
     AND ($known_at IS NULL OR p.recorded_at <= $known_at)
     AND EXISTS { (p)<-[r:SUPERSEDES {carry: false}]-(:Proposition {space: $space}) WHERE r.reason IN ['updated', 'changed'] }))
