// The episodes of a memory space whose scope labels match a filter (agent, session: null for any; metadata: the
// `meta_<key>` properties that must be equal), for forget and export. Exact match, combined with AND.
MATCH (e:Episode {space: $space})
WHERE ($agent IS NULL OR e.agent = $agent) AND ($session IS NULL OR e.session = $session)
  AND all(key IN keys($metadata) WHERE e[key] = $metadata[key])
RETURN collect(e.id) AS episode_ids
