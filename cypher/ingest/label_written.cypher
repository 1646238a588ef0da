// New propositions, episodes and concepts of a space with indexes of its own join them (graph/space_indexes.py;
// the labels are derived from the space's name). Nothing to do for a space without: the Space match finds none.
MATCH (s:Space {space: $space, id: $space})
WHERE s.own_index_labelling
CALL () {
  UNWIND $proposition_ids AS id
  MATCH (n:Proposition {space: $space, id: id})
  SET n:$($proposition_label)
}
CALL () {
  UNWIND $episode_ids AS id
  MATCH (n:Episode {space: $space, id: id})
  SET n:$($episode_label)
}
CALL () {
  UNWIND $concept_ids AS id
  MATCH (n:Concept {space: $space, id: id})
  SET n:$($concept_label)
}
