// The current propositions a revision of the given ones could involve (the ingest pipeline's consolidate stage,
// revisions.py): those about a subject one of them is about (its subject, or, without one, a speaker of its proofs),
// with the columns of active_propositions and the speakers of their proofs. A superset: revisions.py decides on it.
MATCH (n:Proposition {space: $space, status: 'active'})
  WHERE n.id IN $ids
OPTIONAL MATCH (n)-[:PROVEN_BY]->(e:Episode {space: $space})
WITH collect(DISTINCT toLower(n.subject)) + collect(DISTINCT toLower(e.speaker)) AS keys
MATCH (p:Proposition {space: $space, status: 'active'})
  WHERE p.embedding IS NOT NULL
WITH p, keys, [(p)-[:PROVEN_BY]->(e:Episode {space: $space}) WHERE e.speaker IS NOT NULL | e.speaker] AS told
  WHERE (coalesce(p.subject, '') <> '' AND toLower(p.subject) IN keys)
     OR (coalesce(p.subject, '') = '' AND any(s IN told WHERE toLower(s) IN keys))
RETURN p.id AS id, p.text AS text, p.subject AS subject, p.predicate AS predicate, p.object AS object,
       p.valid_from AS valid_from, p.recorded_at AS recorded_at, p.confidence AS confidence, p.embedding AS embedding,
       [(p)-[:MENTIONS]->(c:Concept {space: $space}) | c.id] AS concept_ids,
       told AS speakers
ORDER BY p.id
