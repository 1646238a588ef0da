// A page of a memory space's sources with their episodes in order, for an export in the ingest format: the
// sources holding an episode whose scope labels match the filter, and of them only the matching episodes.
MATCH (s:Source {space: $space})
WHERE coalesce(s.kind, '') <> 'correction'  // corrections made with `correct` are the graph's, not the app's records
WITH s ORDER BY s.external_id, s.id
CALL (s) {
  MATCH (s)<-[:PART_OF]-(e:Episode {space: $space})
  WHERE all(key IN keys($scope) WHERE e[key] = $scope[key])
  WITH e ORDER BY e.seq, e.id
  RETURN collect(e {.external_id, .speaker, .occurred_at, .observation, .action, .reward, .subgoal, .image_caption,
    metadata: apoc.map.fromPairs([key IN keys(e) WHERE key STARTS WITH 'meta_' | [substring(key, 5), e[key]]])})
    AS episodes
}
WITH s, episodes WHERE size(episodes) > 0
WITH collect(s {.id, .external_id, .kind, .title, .created_at, .agent, .session,
  metadata: apoc.map.fromPairs([key IN keys(s) WHERE key STARTS WITH 'meta_' | [substring(key, 5), s[key]]]),
  episodes: episodes}) AS matching
RETURN size(matching) AS total, matching[$skip..$skip + $limit] AS rows
