// The space's current propositions with what the consolidation rules decide on: text, triple, times,
// confidence, embedding, concepts, how many episodes prove them and the kinds of their sources. Every far end is
// matched in $space: an edge into another space adds no concept, proof or source kind.
MATCH (p:Proposition {space: $space, status: 'active'})
WHERE p.embedding IS NOT NULL
RETURN p.id AS id, p.text AS text, p.subject AS subject, p.predicate AS predicate, p.object AS object,
       coalesce(p.frame, '') <> '' AS fact,
       p.valid_from AS valid_from, p.recorded_at AS recorded_at, p.confidence AS confidence, p.embedding AS embedding,
       [(p)-[:MENTIONS]->(c:Concept {space: $space}) | c.id] AS concept_ids,
       COUNT { (p)-[:PROVEN_BY]->(:Episode {space: $space}) } AS support,
       CASE WHEN p.origin = 'correction' THEN ['correction']
            ELSE [(p)-[:PROVEN_BY]->(:Episode {space: $space})-[:PART_OF]->(s:Source {space: $space}) | s.kind]
       END AS source_kinds
ORDER BY p.id
