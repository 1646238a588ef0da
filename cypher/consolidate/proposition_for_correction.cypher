// A proposition of the space with what a correction needs: status, triple, concepts, proofs and, when it was
// replaced, the current proposition that stands for it.
MATCH (p:Proposition {space: $space, id: $id})
USING INDEX p:Proposition(space, id)
OPTIONAL MATCH (head:Proposition)-[:SUPERSEDES*1..10]->(p)
WHERE head.status = 'active'
WITH p, head ORDER BY head.id LIMIT 1
RETURN p.id AS id, p.text AS text, p.status AS status, p.subject AS subject, p.predicate AS predicate,
       p.superseded_by AS superseded_by, head.id AS current_id,
       [(p)-[:MENTIONS]->(c:Concept) | c.id] AS concept_ids, [(p)-[:MENTIONS]->(c:Concept) | c.key] AS concept_keys,
       [(p)-[:PROVEN_BY]->(e:Episode) | e.id] AS provenance
