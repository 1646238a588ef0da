// Before/after figures of a consolidation run (relationships counted when both ends are of the space).
RETURN COUNT { (p:Proposition {space: $space}) WHERE p.status = 'active' } AS active_propositions,
       COUNT { (p:Proposition {space: $space}) WHERE p.status = 'superseded' } AS superseded_propositions,
       COUNT { (c:Concept {space: $space}) } AS concepts,
       COUNT { (:Concept {space: $space})-[:ASSOCIATED]->(:Concept {space: $space}) } AS association_edges,
       COUNT { (:Concept {space: $space})-[:SAME_AS]->(:Concept {space: $space}) } AS alias_edges,
       COUNT { (:Proposition {space: $space})-[:SUPERSEDES]->(:Proposition {space: $space}) } AS supersedes_edges,
       COUNT { (i:Intent {space: $space}) WHERE coalesce(i.status, 'active') = 'active' } AS active_intents,
       COUNT { (:Dimension {space: $space}) } AS dimensions,
       COUNT { (:Proposition {space: $space})-[]->({space: $space}) } + COUNT { (:Concept {space: $space})-[]->({space: $space}) }
         + COUNT { (:Episode {space: $space})-[]->({space: $space}) } + COUNT { (:Prescription {space: $space})-[]->({space: $space}) }
         + COUNT { (:Intent {space: $space})-[]->({space: $space}) } AS edges
