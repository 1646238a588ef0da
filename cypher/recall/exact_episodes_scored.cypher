// exact_episodes for a space of at most `exact_scan_max` episodes, with every scanned episode's id, speaker and score
// besides (`scores`): a later search of some speakers' episodes with the same vector (the participants step) takes
// its hits from them (scored_episodes) instead of reading every embedding again.
// include recall/episode_scan
WITH collect({node: node, score: score}) AS scored
CALL (scored) {
  UNWIND scored AS found
  WITH found.node AS node, found.score AS score
  ORDER BY score DESC, node.id
  LIMIT $k
  // include recall/episode_knowledge
  WITH node, score, row
  ORDER BY score DESC, node.id
  RETURN collect(row) AS rows
}
RETURN rows, [found IN scored | {id: found.node.id, speaker: found.node.speaker, score: found.score}] AS scores
