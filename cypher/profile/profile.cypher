// A user's profile (graph/profile.py; docs/api.md, "The profile"): every state fact of this memory, current and
// replaced. A fact is a proposition with a subject and a slot (engram/facts/); an event (aspect 'event') is no profile
// entry. Each with the episodes that told it; a replaced one with why it was replaced and, where the current end of
// its chain has no slot of its own (`correct` writes a statement, not a parsed fact), that proposition, which then
// stands for the slot now. With $subject (lower case): only facts about that subject. At most $limit rows, in a fixed
// order (graph/profile.py asks one more than it shows, to say the profile was cut).
MATCH (p:Proposition {space: $space})
WHERE coalesce(p.slot, '') <> '' AND coalesce(p.subject, '') <> '' AND coalesce(p.aspect, 'state') <> 'event'
  AND ($subject IS NULL OR toLower(p.subject) = $subject)
  AND EXISTS { MATCH (p)-[:PROVEN_BY]->(:Episode {space: $space}) }
WITH p ORDER BY toLower(p.subject), p.slot, p.valid_from, p.id
LIMIT $limit
CALL (p) {
  OPTIONAL MATCH (p) (()<-[:SUPERSEDES]-(:Proposition {space: $space})){1,16} (head:Proposition {space: $space})
  WHERE p.status <> 'active' AND head.status = 'active' AND coalesce(head.slot, '') = ''
    AND coalesce(head.aspect, 'state') <> 'event'
  RETURN head LIMIT 1
}
RETURN p {
  .id, .text, .subject, .slot, .predicate, value: coalesce(p.object, ''), value_type: coalesce(p.value_type, ''),
  polarity: coalesce(p.polarity, true), status: coalesce(p.status, 'active'), .valid_from, .valid_to,
  .superseded_by, .recorded_at,
  reason: head([(n:Proposition {space: $space})-[r:SUPERSEDES]->(p) WHERE n.id = p.superseded_by | r.reason]),
  provenance: [(p)-[:PROVEN_BY]->(e:Episode {space: $space}) |
               e {.id, .external_id, .source_id, .speaker, .text, .occurred_at, .seq}]
} AS fact,
CASE WHEN head IS NULL THEN null ELSE head {
  .id, .text, .subject, .predicate, value: coalesce(head.object, ''), value_type: coalesce(head.value_type, ''),
  polarity: coalesce(head.polarity, true), status: 'active', .valid_from, .valid_to, superseded_by: null,
  .recorded_at, reason: null,
  provenance: [(head)-[:PROVEN_BY]->(e:Episode {space: $space}) |
               e {.id, .external_id, .source_id, .speaker, .text, .occurred_at, .seq}]
} END AS current_head
