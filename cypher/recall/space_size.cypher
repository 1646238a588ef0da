// Node counts of a space per searchable label (from the (space) range indexes).
RETURN COUNT { (p:Proposition {space: $space}) } AS propositions,
       COUNT { (e:Episode {space: $space}) } AS episodes,
       COUNT { (r:Prescription {space: $space}) } AS prescriptions
