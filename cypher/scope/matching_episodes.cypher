// The episodes of a memory space whose scope labels match a filter, for forget: $scope holds the properties that
// must be equal (agent, session, `meta_<key>`: engram/scope.py ScopeFilter.properties). Exact match, AND.
MATCH (e:Episode {space: $space})
WHERE all(key IN keys($scope) WHERE e[key] = $scope[key])
RETURN collect(e.id) AS episode_ids
