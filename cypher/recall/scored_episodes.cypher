// The episodes an exact scan already scored ($episodes: {id, score}, exact_episodes_scored), each with the knowledge
// it proves, as the scan's rows: the hits of a search of some speakers' episodes with the vector the scan used.
UNWIND $episodes AS found
MATCH (node:Episode {space: $space, id: found.id})
WITH node, found.score AS score
// include recall/episode_knowledge
WITH node, score, row
ORDER BY score DESC, node.id
RETURN collect(row) AS rows
