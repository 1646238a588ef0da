// A proposition of the space with what a correction needs: status, triple, concepts, proofs and, when it was
// replaced, the current proposition that stands for it (a breadth-first traversal visiting each proposition once:
// no path enumeration, see lineage.cypher).
MATCH (p:Proposition {space: $space, id: $id})
USING INDEX p:Proposition(space, id)
CALL (p) {
  CALL apoc.path.subgraphNodes(p, {relationshipFilter: '<SUPERSEDES', labelFilter: '+Proposition', maxLevel: 10})
    YIELD node
  WITH node WHERE node <> p AND node.space = $space AND node.status = 'active'
  RETURN min(node.id) AS current_id
}
RETURN p.id AS id, p.text AS text, p.status AS status, p.subject AS subject, p.predicate AS predicate,
       p.superseded_by AS superseded_by, current_id,
       [(p)-[:MENTIONS]->(c:Concept {space: $space}) | c.id] AS concept_ids,
       [(p)-[:MENTIONS]->(c:Concept {space: $space}) | c.key] AS concept_keys,
       [(p)-[:PROVEN_BY]->(e:Episode {space: $space}) | e.id] AS provenance
