// How many of the given episodes are already in the graph (a bulk import skips a batch that is all there).
UNWIND $episode_ids AS id
MATCH (e:Episode {space: $space, id: id})
USING INDEX e:Episode(space, id)
RETURN count(e) AS stored
