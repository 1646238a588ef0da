// The names a question uses that nothing the scope remembers mentions (graph/recall/steps/relevance.py): no episode
// of the space (of the scope, recorded by $known_at: a name memory holds, whatever world time asOf names) holds the word in its text, no speaker is called by it and no source
// has it in its title. $queries is [{name, word, lucene}]: `lucene` the word alone, scoped to the space where the
// index is shared. A word the index matches in more than $fetch documents counts as mentioned without looking
// further: whether the scope's own are among them is not worth reading them all.
UNWIND $queries AS query
CALL (query) {
  CALL db.index.fulltext.queryNodes($index, query.lucene, {limit: $fetch}) YIELD node
  RETURN count(node) AS fetched,
         count(CASE WHEN node.space = $space AND all(key IN keys($scope) WHERE node[key] = $scope[key])
                     AND ($known_at IS NULL OR node.recorded_at <= $known_at) THEN 1 END) AS holding
}
WITH query WHERE holding = 0 AND fetched < $fetch
  AND NOT EXISTS {
    MATCH (e:Episode {space: $space})
    WHERE e.speaker IS NOT NULL AND all(key IN keys($scope) WHERE e[key] = $scope[key])
      AND ($known_at IS NULL OR e.recorded_at <= $known_at) AND query.word IN apoc.text.split(toLower(e.speaker), '\\W+')
  }
  AND NOT EXISTS {
    MATCH (s:Source {space: $space})
    WHERE s.title IS NOT NULL AND all(key IN keys($scope) WHERE s[key] = $scope[key])
      AND ($known_at IS NULL OR s.recorded_at <= $known_at) AND query.word IN apoc.text.split(toLower(s.title), '\\W+')
  }
RETURN collect(query.name) AS rows
