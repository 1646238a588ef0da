// The current propositions a revision of the given ones could involve (the ingest pipeline's consolidate stage,
// revisions.py: a revision is between two statements of one teller about themselves): those told by a teller of one
// of them, with the columns of active_propositions, the speakers of their proofs and the statements each proving
// utterance yielded. A superset: revisions.py decides on it.
MATCH (n:Proposition {space: $space, status: 'active'})-[:PROVEN_BY]->(e:Episode {space: $space})
  WHERE n.id IN $ids AND e.speaker IS NOT NULL
WITH collect(DISTINCT e.speaker) AS tellers
MATCH (p:Proposition {space: $space, status: 'active'})
  WHERE p.embedding IS NOT NULL
WITH p, [(p)-[:PROVEN_BY]->(e:Episode {space: $space}) WHERE e.speaker IS NOT NULL | e] AS proofs, tellers
  WHERE any(e IN proofs WHERE e.speaker IN tellers)
RETURN p.id AS id, p.text AS text, p.subject AS subject, p.predicate AS predicate, p.object AS object,
       coalesce(p.frame, '') <> '' AS fact,
       p.valid_from AS valid_from, p.recorded_at AS recorded_at, p.confidence AS confidence, p.embedding AS embedding,
       [(p)-[:MENTIONS]->(c:Concept {space: $space}) | c.id] AS concept_ids,
       [e IN proofs | e.speaker] AS speakers, [e IN proofs | COUNT { (e)<-[:PROVEN_BY]-() }] AS yields
ORDER BY p.id
