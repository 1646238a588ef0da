// 0010: a document is the page of the concept its title names ("Lake District"): recall looks documents up by
// `title_key`, the concept key of the title (engram/extraction/keyphrases.py `title_key`: a trailing qualifier in
// parentheses and a leading article dropped; then lower case, apostrophes and possessive 's dropped, runs of a-z and
// 0-9 joined by single spaces, the last word singular). Ingestion writes it from now on; documents written before
// get it here, by the same rule. Idempotent.
CREATE RANGE INDEX source_title_key IF NOT EXISTS FOR (n:Source) ON (n.space, n.title_key);
MATCH (s:Source {kind: 'document'}) WHERE s.title_key IS NULL AND coalesce(s.title, '') <> ''
WITH s, apoc.text.replace(apoc.text.replace(toLower(s.title), '\\s*\\([^()]*\\)\\s*$', ''), '^(the|a|an)\\s+', '')
  AS name
WITH s, replace(replace(replace(name, '’', "'"), "'s ", ' '), "'", '') AS plain
WITH s, [word IN apoc.text.split(plain, '[^a-z0-9]+') WHERE word <> ''] AS words
WHERE size(words) > 0
WITH s, words[..-1] AS head, words[-1] AS last
WITH s, head, CASE
  WHEN size(last) <= 3 OR any(end IN ['ss', 'us', 'is', 'ics'] WHERE last ENDS WITH end) THEN last
  WHEN last ENDS WITH 'ies' AND size(last) > 4 THEN left(last, size(last) - 3) + 'y'
  WHEN any(end IN ['ches', 'shes', 'xes', 'sses'] WHERE last ENDS WITH end) THEN left(last, size(last) - 2)
  WHEN last ENDS WITH 's' THEN left(last, size(last) - 1)
  ELSE last END AS singular
SET s.title_key = apoc.text.join(head + singular, ' ');
