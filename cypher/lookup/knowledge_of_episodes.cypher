// The knowledge (propositions, prescriptions) each episode proves.
UNWIND $ids AS episode_id
MATCH (e:Episode {space: $space, id: episode_id})<-[:PROVEN_BY]-(k {space: $space})
USING INDEX e:Episode(space, id)
WITH episode_id, k ORDER BY k.id
RETURN episode_id, collect(k {.*, embedding: null, label: labels(k)[0]}) AS knowledge
