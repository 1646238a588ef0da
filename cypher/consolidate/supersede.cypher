// Supersession, never deletion: the replaced proposition stays (status 'superseded', expired_at now, valid_to
// when its value stopped being true in the world) and the survivor SUPERSEDES it. Both must still be current
// when this runs (a concurrent correction may have got there first). With `carry` the survivor stands for the
// replaced statement: it gains its proofs (marked inherited_from) and its concepts, those of the space only. A pair whose survivor already lies in
// the history of the replaced one is skipped: the edge would close a cycle (a correction can make an old text current).
UNWIND $supersessions AS s
MATCH (new:Proposition {space: $space, id: s.survivor})
USING INDEX new:Proposition(space, id)
MATCH (old:Proposition {space: $space, id: s.replaced})
USING INDEX old:Proposition(space, id)
WHERE new.status = 'active' AND old.status = 'active' AND new <> old
  AND NOT EXISTS { MATCH SHORTEST 1 (old) (()-[:SUPERSEDES]->(:Proposition {space: $space}))+ (new) }
SET old.status = 'superseded', old.expired_at = datetime(), old.superseded_by = new.id,
    old.valid_to = CASE
      WHEN NOT s.ends_validity THEN old.valid_to
      WHEN new.valid_from IS NOT NULL AND (old.valid_from IS NULL OR new.valid_from > old.valid_from) THEN new.valid_from
      ELSE datetime() END
MERGE (new)-[r:SUPERSEDES]->(old)
  ON CREATE SET r.reason = s.reason, r.similarity = s.similarity, r.score = s.score, r.at = datetime(), r.carry = s.carry
WITH new, old, s
CALL (new, old, s) {
  WITH new, old, s WHERE s.carry
  MATCH (old)-[:PROVEN_BY]->(e:Episode {space: $space})
  WHERE NOT (new)-[:PROVEN_BY]->(e)
  CREATE (new)-[:PROVEN_BY {inherited_from: old.id}]->(e)
  RETURN count(e) AS proofs
}
CALL (new, old, s) {
  WITH new, old, s WHERE s.carry
  MATCH (old)-[:MENTIONS]->(c:Concept {space: $space})
  MERGE (new)-[:MENTIONS]->(c)
  RETURN count(c) AS concepts
}
RETURN collect(old.id) AS replaced
