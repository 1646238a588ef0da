MATCH (e:Episode {space: $space})-[:PART_OF]->(s:Source {space: $space})
WHERE s.id IN $source_ids
RETURN collect(e.id) AS episode_ids
