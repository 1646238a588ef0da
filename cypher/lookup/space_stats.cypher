// Node counts of one space (each a count store or index lookup on (space)).
CALL () { MATCH (n:Source {space: $space}) RETURN count(n) AS sources }
CALL () { MATCH (n:Episode {space: $space}) RETURN count(n) AS episodes }
CALL () { MATCH (n:Proposition {space: $space}) RETURN count(n) AS propositions }
CALL () { MATCH (n:Proposition {space: $space, status: 'active'}) RETURN count(n) AS active_propositions }
CALL () { MATCH (n:Concept {space: $space}) RETURN count(n) AS concepts }
CALL () { MATCH (n:Intent {space: $space}) RETURN count(n) AS intents }
CALL () { MATCH (n:Prescription {space: $space}) RETURN count(n) AS prescriptions }
CALL () { MATCH (n:Dimension {space: $space}) RETURN count(n) AS dimensions }
RETURN sources, episodes, propositions, active_propositions, concepts, intents, prescriptions, dimensions
