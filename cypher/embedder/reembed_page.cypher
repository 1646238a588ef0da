// A page of a space's nodes of one label ({label}: graph/reembed.py fills it in from its fixed list) after the
// cursor, in id order, with the text their vector embeds (a concept's: its name) and, for an episode, the vectors
// of the propositions it proves (its vector is their normalised mean, as ingest's embed stage makes it).
MATCH (n:{label} {space: $space})
USING INDEX n:{label}(space, id)
WHERE n.id > $after AND n.embedding IS NOT NULL
WITH n ORDER BY n.id LIMIT $limit
RETURN n.id AS id, coalesce(n.text, n.name, '') AS text,
       [(p:Proposition {space: $space})-[:PROVEN_BY]->(n) WHERE p.embedding IS NOT NULL | p.embedding] AS proven
