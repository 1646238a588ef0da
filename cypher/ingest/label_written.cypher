// New propositions and episodes of a space with vector indexes of its own join them (graph/space_vectors.py).
// Nothing to do for a space without: the Space match finds no labels.
MATCH (s:Space {space: $space, id: $space})
WHERE s.proposition_label IS NOT NULL
CALL (s) {
  UNWIND $proposition_ids AS id
  MATCH (n:Proposition {space: $space, id: id})
  SET n:$(s.proposition_label)
}
CALL (s) {
  UNWIND $episode_ids AS id
  MATCH (n:Episode {space: $space, id: id})
  SET n:$(s.episode_label)
}
