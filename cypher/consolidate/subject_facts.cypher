// The facts of the subjects the given propositions are about (engram/facts/: a proposition with a frame or an ended
// value is a fact), every version, in a deterministic order: fact changes are planned over them
// (consolidation/fact_changes.py: only current facts end or are ended; any version passes its slot on).
MATCH (given:Proposition {space: $space})
WHERE given.id IN $ids AND coalesce(given.subject, '') <> ''
WITH collect(DISTINCT toLower(given.subject)) AS subjects
MATCH (p:Proposition {space: $space})
WHERE toLower(p.subject) IN subjects AND (coalesce(p.frame, '') <> '' OR size(coalesce(p.ends, [])) > 0)
RETURN p.id AS id, toLower(p.subject) AS subject, coalesce(p.slot, '') AS slot, coalesce(p.object, '') AS value,
       coalesce(p.ends, []) AS ends, coalesce(p.adds, false) AS adds, coalesce(p.renews, false) AS renews, p.aspect = 'event' AS event,
       coalesce(p.polarity, true) AS polarity, p.status = 'active' AS current, p.valid_from AS valid_from, p.recorded_at AS recorded_at
ORDER BY p.valid_from, p.recorded_at, p.id
