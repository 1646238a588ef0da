// How much one memory space holds (what forgetting a user's whole memory removes).
RETURN COUNT { (:Episode {space: $space}) } AS episodes,
       COUNT { (:Proposition {space: $space}) } + COUNT { (:Prescription {space: $space}) } AS knowledge,
       COUNT { (:Concept {space: $space}) } AS concepts
