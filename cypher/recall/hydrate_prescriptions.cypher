UNWIND $ids AS item_id
MATCH (p:Prescription {space: $space, id: item_id})
USING INDEX p:Prescription(space, id)
OPTIONAL MATCH (p)-[:PROVEN_BY]->(e:Episode)
WITH p, e ORDER BY e.occurred_at, e.seq, e.id
WITH p, collect(e {.id, .external_id, .source_id, .speaker, .text, occurred_at: toString(e.occurred_at)}) AS provenance
RETURN p.id AS id, p.text AS text, null AS valid_from, (p.return_score - 1.0) / 9.0 AS importance, 0.7 AS confidence,
       vector.similarity.cosine(p.embedding, $vector) AS similarity, provenance
