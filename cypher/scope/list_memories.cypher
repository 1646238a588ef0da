// A page of a memory space's memories, newest first: current knowledge (propositions, prescriptions; superseded ones
// with $include_superseded) and episodes, of the kinds asked, in a time span ($since inclusive, $until exclusive, on
// when it was true or happened, else when it was recorded), proven by (or being) an episode whose scope labels match
// the filter. Each with the app's ids of the episodes and sources it comes from, and a proposition with the properties
// of the atomic fact it states (null for the other kinds; Fact.of in app/api/schema/nodes.py reads them).
CALL () {
  MATCH (m:Proposition {space: $space}) WHERE 'proposition' IN $kinds AND ($include_superseded OR m.status = 'active')
  RETURN m, 'proposition' AS kind
  UNION
  MATCH (m:Prescription {space: $space}) WHERE 'prescription' IN $kinds
  RETURN m, 'prescription' AS kind
  UNION
  MATCH (m:Episode {space: $space}) WHERE 'episode' IN $kinds
  RETURN m, 'episode' AS kind
}
WITH m, kind, coalesce(m.valid_from, m.occurred_at, m.recorded_at) AS at
WHERE ($since IS NULL OR at >= $since) AND ($until IS NULL OR at < $until)
CALL (m, kind) {
  OPTIONAL MATCH (m)-[:PROVEN_BY]->(proof:Episode {space: $space})
  WITH m, kind, collect(proof) AS proven
  WITH CASE WHEN kind = 'episode' THEN [m] ELSE proven END AS proofs
  RETURN [e IN proofs WHERE all(key IN keys($scope) WHERE e[key] = $scope[key])] AS proofs
}
WITH m, kind, at, proofs WHERE size(proofs) > 0
WITH m, kind, at, proofs ORDER BY at DESC, m.id
WITH collect({m: m, kind: kind, at: at, proofs: proofs}) AS matching
RETURN size(matching) AS total, [row IN matching[$skip..$skip + $limit] | {
  id: row.m.id, kind: row.kind, text: row.m.text, status: coalesce(row.m.status, 'active'), at: row.at,
  valid_to: row.m.valid_to, recorded_at: row.m.recorded_at,
  fact: CASE row.kind WHEN 'proposition' THEN {subject: row.m.subject, slot: row.m.slot, object: row.m.object,
    value_type: row.m.value_type, aspect: row.m.aspect, polarity: row.m.polarity, ends: row.m.ends} END,
  episodes: [e IN row.proofs | {id: e.id, external_id: e.external_id,
    source: head([(e)-[:PART_OF]->(s:Source {space: $space}) | s {.id, .external_id}])}]
}] AS rows
