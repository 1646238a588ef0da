// 0008: a prescription's `terms` (what its full-text search reads, schema 0007) hold its intent, then the words of its
// actions and of what its steps observed, each once (engram/extraction/trajectory.py `Segment.prescription_terms`): a
// task is named by the states it goes through ("You clean the potato 1 using the sinkbasin 1") as much as by its
// actions. Prescriptions written before get their terms here from their intent (their text is "To <intent>: 1.
// <action>; ..."), their `steps` and the observations of the episodes that prove them, in step order; ingestion
// writes them from now on. Words are runs of letters and digits, lower-cased, as ingestion splits them. Idempotent:
// the same graph gives the same terms.
MATCH (p:Prescription)
CALL (p) {
  OPTIONAL MATCH (p)-[:PROVEN_BY]->(e:Episode {space: p.space})
  WITH e ORDER BY e.seq
  RETURN [o IN collect(e.observation) WHERE o IS NOT NULL] AS observed
}
WITH p, substring(split(p.text, ': ')[0], 3) AS intent, apoc.text.join(coalesce(p.steps, []) + observed, ' ; ') AS done
WITH p, intent, [word IN apoc.text.split(toLower(done), '[^\\p{L}\\p{N}]+') WHERE word <> ''] AS words
SET p.terms = intent + ' ' + apoc.text.join(apoc.coll.toSet(words), ' ');
