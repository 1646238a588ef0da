// The episodes that prove a knowledge item, found by label and (space, id) (an index seek, not a scan of every space).
CALL () {
  MATCH (k:Proposition {space: $space, id: $item_id}) USING INDEX SEEK k:Proposition(space, id) RETURN k
  UNION
  MATCH (k:Prescription {space: $space, id: $item_id}) USING INDEX SEEK k:Prescription(space, id) RETURN k
}
MATCH (k)-[:PROVEN_BY]->(e:Episode {space: $space})-[:PART_OF]->(s:Source {space: $space})
RETURN e.id AS id, e.external_id AS external_id, e.speaker AS speaker, e.text AS text,
       e.occurred_at AS occurred_at, s.id AS source_id, s.external_id AS source
ORDER BY e.occurred_at, e.seq
