// Entity pages (schema 0010): the documents whose title a top item names ("items": by a concept it mentions or by a
// run of its own words, $items[].names: "... by the band Monsters of Folk" -> the article "Monsters of Folk", which
// no concept key holds; never the item's own document) and those the query names ("query": $names, longest first).
// Each page gives its passages closest to the query (at most $per_page); each kind of page ranks its passages by the
// naming item's rank or the name's order, then by closeness, and keeps its first $k. A multi-hop question's bridge
// passage is close to what the first hop found, not to the question. Each row carries the knowledge it proves
// (episode_knowledge).
CALL () {
  UNWIND $items AS item
  MATCH (p:Proposition {space: $space, id: item.id})
  USING INDEX p:Proposition(space, id)
  CALL (p, item) {
    MATCH (p)-[:MENTIONS]->(c:Concept {space: $space})
    RETURN c.key AS key
    UNION
    UNWIND item.names AS key
    RETURN key
  }
  MATCH (s:Source {space: $space, title_key: key})
  USING INDEX s:Source(space, title_key)
  // An item naming the subject of its own document points nowhere new.
  WHERE ($as_of IS NULL OR coalesce(s.created_at, s.recorded_at) <= $as_of) AND ($known_at IS NULL OR s.recorded_at <= $known_at) AND NOT EXISTS { (p)-[:PROVEN_BY]->(:Episode)-[:PART_OF]->(s) }
  RETURN 'items' AS via, s, item.rank AS rank, key
  UNION ALL
  UNWIND range(0, size($names) - 1) AS rank
  MATCH (s:Source {space: $space, title_key: $names[rank]})
  USING INDEX s:Source(space, title_key)
  WHERE ($as_of IS NULL OR coalesce(s.created_at, s.recorded_at) <= $as_of) AND ($known_at IS NULL OR s.recorded_at <= $known_at)
  RETURN 'query' AS via, s, rank, $names[rank] AS key
}
WITH via, s, min(rank) AS rank, collect(DISTINCT key) AS keys
CALL (s) {
  MATCH (e:Episode)-[:PART_OF]->(s)
  WHERE ($as_of IS NULL OR coalesce(e.occurred_at, e.recorded_at) <= $as_of) AND ($known_at IS NULL OR e.recorded_at <= $known_at)
  WITH e, vector.similarity.cosine(e.embedding, $vector) AS score
  ORDER BY score DESC, e.id
  LIMIT $per_page
  RETURN e, score
}
WITH via, e, min(rank) AS rank, max(score) AS score, apoc.coll.toSet(apoc.coll.flatten(collect(keys))) AS keys
ORDER BY via, rank, score DESC, e.id
WITH via, collect({e: e, rank: rank, score: score, keys: keys})[..$k] AS first
UNWIND first AS page
WITH via, page.e AS node, page.rank AS rank, page.score AS score, page.keys AS keys
// include recall/episode_knowledge
WITH via, node, rank, score, keys, row
ORDER BY via, rank, score DESC, node.id
RETURN collect(row {.*, via: via, keys: keys}) AS rows
