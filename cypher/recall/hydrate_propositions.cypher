UNWIND $ids AS item_id
MATCH (p:Proposition {space: $space, id: item_id})
USING INDEX p:Proposition(space, id)
OPTIONAL MATCH (p)-[:PROVEN_BY]->(e:Episode)
WITH p, e ORDER BY e.occurred_at, e.seq, e.id
WITH p, collect(e {.id, .external_id, .source_id, .speaker, .text, .occurred_at}) AS provenance
RETURN p.id AS id, p.text AS text, p.subject AS subject, p.valid_from AS valid_from,
       p.recorded_at AS recorded_at, coalesce(p.importance, 0.5) AS importance,
       coalesce(p.confidence, 0.7) AS confidence, vector.similarity.cosine(p.embedding, $vector) AS similarity,
       [(p)-[:MENTIONS]->(c:Concept) | c.id] AS concept_ids, provenance
