// Whether the space holds $threshold propositions or episodes (counted no further than that).
RETURN COUNT { MATCH (n:Proposition {space: $space}) RETURN n LIMIT $threshold } >= $threshold
    OR COUNT { MATCH (n:Episode {space: $space}) RETURN n LIMIT $threshold } >= $threshold AS large
