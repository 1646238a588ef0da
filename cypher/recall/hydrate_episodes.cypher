UNWIND $ids AS item_id
MATCH (e:Episode {space: $space, id: item_id})
USING INDEX e:Episode(space, id)
RETURN e.id AS id, e.text AS text, e.speaker AS subject, e.occurred_at AS valid_from,
       e.recorded_at AS recorded_at, 0.5 AS importance, 0.6 AS confidence,
       vector.similarity.cosine(e.embedding, $vector) AS similarity, [] AS concept_ids,
       [e {.id, .external_id, .source_id, .speaker, .text, .occurred_at}] AS provenance
