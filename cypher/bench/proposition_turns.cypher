// Each current proposition of the space with the turns (episodes' external ids) that prove it and the SUPERSEDES
// 'updated' links already written (bench/revision_links.py: which statements a revision links, and what it stood on).
MATCH (p:Proposition {space: $space})
WHERE p.status IN ['active', 'superseded']
RETURN p.id AS id, p.status AS status, p.text AS text,
       [(p)-[:PROVEN_BY]->(e:Episode {space: $space}) | e.external_id] AS turns,
       [(p)-[r:SUPERSEDES {reason: 'updated'}]->(o:Proposition {space: $space}) WHERE r.carry = false | o.id] AS revises
