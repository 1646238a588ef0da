MATCH (k {space: $space, id: $item_id})-[:PROVEN_BY]->(e:Episode)-[:PART_OF]->(s:Source)
RETURN e.id AS id, e.external_id AS external_id, e.speaker AS speaker, e.text AS text,
       e.occurred_at AS occurred_at, s.id AS source_id, s.external_id AS source
ORDER BY e.occurred_at, e.seq
