// A page of each source's episodes, in order.
UNWIND $ids AS source_id
MATCH (s:Source {space: $space, id: source_id})<-[:PART_OF]-(e:Episode {space: $space})
USING INDEX s:Source(space, id)
WITH source_id, e ORDER BY e.seq
WITH source_id, collect(e {.*, embedding: null}) AS episodes
RETURN source_id, episodes[$skip..($skip + $limit)] AS episodes, size(episodes) AS total
