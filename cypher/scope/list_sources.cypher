// A page of a memory space's sources (by external id), those whose scope labels match the filter, with how many
// there are. $scope: the properties that must be equal (engram/scope.py ScopeFilter.properties).
MATCH (s:Source {space: $space})
WHERE ($kind IS NULL OR s.kind = $kind) AND all(key IN keys($scope) WHERE s[key] = $scope[key])
WITH s ORDER BY s.external_id, s.id
WITH collect(s) AS matching
RETURN size(matching) AS total, [s IN matching[$skip..$skip + $limit] | s {
  .id, .external_id, .kind, .title, .created_at, .user, .agent, .session,
  metadata: apoc.map.fromPairs([key IN keys(s) WHERE key STARTS WITH 'meta_' | [substring(key, 5), s[key]]]),
  episodes: COUNT { (s)<-[:PART_OF]-(:Episode {space: $space}) }
}] AS rows
