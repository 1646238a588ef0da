UNWIND $ids AS item_id
MATCH (e:Episode {space: $space, id: item_id})
USING INDEX e:Episode(space, id)
RETURN e.id AS id, e.text AS text, toString(e.occurred_at) AS valid_from, 0.5 AS importance, 0.6 AS confidence,
       vector.similarity.cosine(e.embedding, $vector) AS similarity,
       [e {.id, .external_id, .source_id, .speaker, .text, occurred_at: toString(e.occurred_at)}] AS provenance
