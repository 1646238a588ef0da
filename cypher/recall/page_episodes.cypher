// Entity pages (schema 0010): the documents whose title a top item names ("items": by a concept it mentions or by a
// run of its own words, $items[].names: "... by the band Monsters of Folk" -> the article "Monsters of Folk", which
// no concept key holds; never the item's own document) and those the query names ("query": $names, longest first).
// Each page gives its passages closest to the query (at most $per_page); each kind of page ranks its passages by the
// naming item's rank or the name's order, then by closeness, and keeps its first $k. A multi-hop question's bridge
// passage is close to what the first hop found, not to the question. Each row carries the knowledge it proves as
// dense_episodes' do.
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
  WHERE ($as_of IS NULL OR s.recorded_at <= $as_of) AND NOT EXISTS { (p)-[:PROVEN_BY]->(:Episode)-[:PART_OF]->(s) }
  RETURN 'items' AS via, s, item.rank AS rank, key
  UNION ALL
  UNWIND range(0, size($names) - 1) AS rank
  MATCH (s:Source {space: $space, title_key: $names[rank]})
  USING INDEX s:Source(space, title_key)
  WHERE $as_of IS NULL OR s.recorded_at <= $as_of
  RETURN 'query' AS via, s, rank, $names[rank] AS key
}
WITH via, s, min(rank) AS rank, collect(DISTINCT key) AS keys
CALL (s) {
  MATCH (e:Episode)-[:PART_OF]->(s)
  WHERE $as_of IS NULL OR e.recorded_at <= $as_of
  WITH e, vector.similarity.cosine(e.embedding, $vector) AS score
  ORDER BY score DESC, e.id
  LIMIT $per_page
  RETURN e, score
}
WITH via, e, min(rank) AS rank, max(score) AS score, apoc.coll.toSet(apoc.coll.flatten(collect(keys))) AS keys
ORDER BY via, rank, score DESC, e.id
WITH via, collect({e: e, rank: rank, score: score, keys: keys})[..$k] AS first
UNWIND first AS row
WITH via, row.e AS e, row.rank AS rank, row.score AS score, row.keys AS keys
OPTIONAL MATCH (p:Proposition {space: $space})-[:PROVEN_BY]->(e)
WITH via, e, rank, score, keys, p, CASE WHEN $as_of IS NULL THEN p.status = 'active'
     ELSE p.recorded_at <= $as_of AND (p.expired_at IS NULL OR p.expired_at > $as_of) END AS current,
     $as_of IS NULL OR p.recorded_at <= $as_of AS known
WITH via, e, rank, score, keys, collect(CASE WHEN current THEN p.id END) AS propositions,
     count(CASE WHEN known THEN p END) AS knowledge
ORDER BY via, rank, score DESC, e.id
RETURN collect({via: via, id: e.id, score: score, keys: keys, propositions: propositions, prescriptions: [],
                knowledge: knowledge}) AS rows
