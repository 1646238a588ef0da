// Conversational context of the top items' episodes: the utterances right after (up to two) and right before
// each one in its source. An answer, a follow-up or what "this" refers to often lives in the neighbouring turn.
UNWIND $anchors AS anchor
MATCH (e:Episode {space: $space, id: anchor.id})
USING INDEX e:Episode(space, id)
CALL (e) {
  MATCH path = (e)-[:NEXT*1..2]->(n:Episode)
  RETURN n, length(path) AS distance
  UNION
  MATCH (n:Episode)-[:NEXT]->(e)
  RETURN n, 1 AS distance
}
WITH anchor, n, distance
WHERE n.space = $space AND ($as_of IS NULL OR coalesce(n.occurred_at, n.recorded_at) <= $as_of) AND ($known_at IS NULL OR n.recorded_at <= $known_at)
OPTIONAL MATCH (p:Proposition {space: $space})-[:PROVEN_BY]->(n)
WITH anchor, n, distance, p,
     // include recall/candidate_proposition
     AS current,
     ($as_of IS NULL OR coalesce(p.valid_from, p.recorded_at) <= $as_of)
       AND ($known_at IS NULL OR p.recorded_at <= $known_at) AS known  // what held, and memory had, by then
WITH anchor, n, distance,
     collect(CASE WHEN current THEN {id: p.id, similarity: vector.similarity.cosine(p.embedding, $vector)} END)
       AS propositions,
     count(CASE WHEN known THEN p END) AS knowledge
// A trajectory step's knowledge is the prescription drawn from it: it is not a bare utterance to return in its place
// (as in dense_episodes).
OPTIONAL MATCH (r:Prescription {space: $space})-[:PROVEN_BY]->(n)
WHERE $known_at IS NULL OR r.recorded_at <= $known_at
WITH anchor, n, distance, propositions, knowledge, count(r) AS prescriptions
RETURN collect({
  anchor_rank: anchor.rank, episode_id: n.id, distance: distance,
  episode_similarity: vector.similarity.cosine(n.embedding, $vector), propositions: propositions,
  knowledge: knowledge + prescriptions
}) AS rows
