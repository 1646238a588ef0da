// A page of each source's episodes, in order, and how many it has. The page is cut here (a top-k of skip + limit
// rows), so a source of any size costs the memory of one page.
UNWIND $ids AS source_id
MATCH (s:Source {space: $space, id: source_id})
USING INDEX s:Source(space, id)
CALL (s) {
  MATCH (s)<-[:PART_OF]-(e:Episode {space: $space})
  WITH e ORDER BY e.seq SKIP $skip LIMIT $limit
  RETURN collect(e {.*, embedding: null}) AS episodes
}
RETURN source_id, episodes, COUNT { (s)<-[:PART_OF]-(:Episode {space: $space}) } AS total
