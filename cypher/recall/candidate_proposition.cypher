// Included where a recall statement decides whether the proposition `p` may be returned (`// include
// recall/candidate_proposition`, graph/cypher.py): current knowledge (active, or with $as_of recorded by then and not
// yet expired), or a statement a revision replaced (SUPERSEDES {reason: 'updated', carry: false}, consolidation's
// revisions step): what its turn said stays found by its words, its episode and its concepts; recall puts the current
// version just above it (graph/recall/steps/current_versions.py). A merge or a carrying update is not: its survivor
// stands for it (the access path of dense_propositions). A boolean expression, in parentheses.
(CASE WHEN $as_of IS NULL THEN p.status = 'active'
      ELSE p.recorded_at <= $as_of AND (p.expired_at IS NULL OR p.expired_at > $as_of) END
 OR (($as_of IS NULL OR p.recorded_at <= $as_of)
     AND EXISTS { (p)<-[:SUPERSEDES {reason: 'updated', carry: false}]-(:Proposition {space: $space}) }))
