MATCH (c:Concept {space: $space})<-[:MENTIONS]-(p:Proposition {space: $space})
USING INDEX c:Concept(space, key)
WHERE c.key = $key AND p.status = 'active'
WITH p ORDER BY p.valid_from, p.id SKIP $skip LIMIT $limit
RETURN p.id AS id, p.text AS text, p.valid_from AS valid_from,
       [(p)-[:PROVEN_BY]->(e:Episode {space: $space}) | e.external_id] AS episodes,
       [(p)-[r:RELATED_TO|NEXT|CAUSED_BY|CONTRASTS_WITH|SUPERSEDES]-(o {space: $space}) | {type: type(r), id: o.id}] AS links
