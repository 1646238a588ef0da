// The given concepts of the space with their keys and embeddings (revisions.py over the propositions one ingest
// wrote and their neighbours: two values of one attribute are close concepts).
MATCH (c:Concept {space: $space})
  WHERE c.id IN $ids AND c.embedding IS NOT NULL
RETURN c.id AS id, c.key AS key, c.embedding AS embedding
ORDER BY id
