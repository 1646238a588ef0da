// How many nodes of each searchable label a space has, counted only up to $cap_plus_one: enough to
// choose between an exact scan and the shared vector index, and whether full-text queries are scoped to the space,
// without counting a large space in full; and whether the space has indexes of its own (graph/space_indexes.py).
WITH COUNT { MATCH (n:Proposition {space: $space}) RETURN n LIMIT $cap_plus_one } AS propositions,
     COUNT { MATCH (n:Episode {space: $space}) RETURN n LIMIT $cap_plus_one } AS episodes
RETURN propositions, episodes,
       COUNT { MATCH (n:Prescription {space: $space}) RETURN n LIMIT $cap_plus_one } AS prescriptions,
       COUNT { MATCH (n:Intent {space: $space}) RETURN n LIMIT $cap_plus_one } AS intents,
       COUNT { MATCH (n:Concept {space: $space}) RETURN n LIMIT $cap_plus_one } AS concepts,
       // whether any document is a concept's page (schema 0010): recall looks for pages only where one is
       COUNT { MATCH (n:Source {space: $space}) WHERE n.title_key IS NOT NULL RETURN n LIMIT 1 } AS pages,
       COUNT { MATCH (s:Space {space: $space, id: $space}) WHERE s.own_indexes_ready RETURN s } AS own_indexes,
       // the mean length in characters of a statement's and an utterance's text where the space was counted in full
       // (only such a space is scored with its own statistics, graph/recall/bm25.py): the average length BM25
       // discounts by. A larger space's texts are not read (0).
       CASE WHEN propositions < $cap_plus_one
            THEN COLLECT { MATCH (n:Proposition {space: $space}) RETURN toInteger(round(coalesce(avg(size(n.text)), 0))) }[0]
            ELSE 0 END AS proposition_chars,
       CASE WHEN episodes < $cap_plus_one
            THEN COLLECT { MATCH (n:Episode {space: $space}) RETURN toInteger(round(coalesce(avg(size(n.text)), 0))) }[0]
            ELSE 0 END AS episode_chars
