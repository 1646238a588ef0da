// Gives every proposition, episode and concept of the space its label, in batches (auto-commit run only). Nodes
// already labelled are skipped, so a later run only catches what a write racing the first run left out.
CALL () {
  MATCH (n:Proposition {space: $space}) WHERE NOT $proposition_label IN labels(n) RETURN n, $proposition_label AS label
  UNION ALL
  MATCH (n:Episode {space: $space}) WHERE NOT $episode_label IN labels(n) RETURN n, $episode_label AS label
  UNION ALL
  MATCH (n:Concept {space: $space}) WHERE NOT $concept_label IN labels(n) RETURN n, $concept_label AS label
}
CALL (n, label) { SET n:$(label) } IN TRANSACTIONS OF 10000 ROWS
