// Would `new` SUPERSEDES `old` close a cycle? It would when `new` already lies in what `old` replaced, directly or
// transitively. A shortest-path search: bounded whatever the shape of the history. No row when `new` is not there yet.
MATCH (old:Proposition {space: $space, id: $old_id})
USING INDEX old:Proposition(space, id)
MATCH (new:Proposition {space: $space, id: $new_id})
USING INDEX new:Proposition(space, id)
RETURN EXISTS { MATCH SHORTEST 1 (old) (()-[:SUPERSEDES]->(:Proposition {space: $space}))+ (new) } AS cycle
