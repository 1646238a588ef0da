// Whether a memory space holds anything, and the mark of an import under way (import_started).
OPTIONAL MATCH (s:Space {space: $space, id: $space})
RETURN s.import_pending AS pending,
       EXISTS { MATCH (n:Source {space: $space}) } OR EXISTS { MATCH (n:Episode {space: $space}) } OR
       EXISTS { MATCH (n:Proposition {space: $space}) } OR EXISTS { MATCH (n:Concept {space: $space}) } AS holds
