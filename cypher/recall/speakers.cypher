MATCH (e:Episode {space: $space}) WHERE e.speaker <> ''
RETURN DISTINCT e.speaker AS speaker LIMIT 100
