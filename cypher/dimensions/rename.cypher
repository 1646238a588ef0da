// After concepts were deleted (a forget, retired or orphaned knowledge): each of the space's dimensions is named
// again from the concepts still in it, most important first, as graph/dimensions.py names them, so no label or
// summary keeps a deleted concept's key; a dimension left without concepts goes.
MATCH (d:Dimension {space: $space})
OPTIONAL MATCH (d)<-[:IN]-(c:Concept {space: $space})
WITH d, c
ORDER BY c.importance DESC, c.key
WITH d, collect(c.key) AS keys
FOREACH (_ IN CASE WHEN keys = [] THEN [] ELSE [1] END |
  SET d.label = apoc.text.join(keys[..$label_concepts], ' / '),
      d.summary = size(keys) + ' concepts: ' + apoc.text.join(keys[..$summary_concepts], ', '))
WITH d, keys
WHERE keys = []
DETACH DELETE d
RETURN count(*) AS removed
