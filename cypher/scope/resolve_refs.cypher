// The ids a forget or get names, resolved in one memory space: an internal id, or the app's own ids given at ingest.
// A source ref is a record id ("client-chat": every session of it), "record/session", or a source's internal id; an
// episode ref is a turn id ("s2-3"), "record/session/turn", or an episode's internal id. A turn id found in several
// sources is ambiguous: it resolves to nothing and says so (`matches` > 1), so a forget never takes more than asked.
UNWIND $refs AS ref
CALL (ref) {
  OPTIONAL MATCH (s:Source {space: $space})
  WHERE ref.kind = 'source' AND (s.id = ref.ref OR s.external_id = ref.ref OR s.external_id STARTS WITH ref.ref + '/')
  RETURN collect(DISTINCT s.id) AS sources
}
CALL (ref) {
  OPTIONAL MATCH (e:Episode {space: $space})
  WHERE ref.kind = 'episode' AND (e.id = ref.ref OR e.external_id = ref.ref)
  RETURN collect(DISTINCT e.id) AS direct
}
CALL (ref) {
  // "record/session/turn": the turn of that source (the turn id is what follows the source's external id).
  OPTIONAL MATCH (e:Episode {space: $space})-[:PART_OF]->(s:Source {space: $space})
  WHERE ref.kind = 'episode' AND ref.ref STARTS WITH s.external_id + '/'
    AND e.external_id = substring(ref.ref, size(s.external_id) + 1)
  RETURN collect(DISTINCT e.id) AS pathed
}
WITH ref, sources, CASE WHEN size(pathed) > 0 THEN pathed ELSE direct END AS episodes
RETURN ref.ref AS ref, ref.kind AS kind, sources, episodes
