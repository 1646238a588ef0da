// 0007: a prescription's full-text search reads `terms`: its intent, then the words of its actions each once
// (engram/extraction/trajectory.py `Segment.prescription_terms`). A procedure's steps repeat the objects and places
// they handle, and by term frequency it matched a query on what it searched longest rather than on what it was for.
// The index keeps `text` too, so a reader of the old field still finds everything. Prescriptions written before get
// their terms here from their text ("To <intent>: 1. <action>; 2. ..."; words split at spaces and punctuation,
// lower-cased); ingestion writes them from now on. Idempotent.
MATCH (p:Prescription) WHERE p.terms IS NULL
WITH p, split(p.text, ': ')[0] AS intent
WITH p, intent, [word IN split(
  replace(replace(replace(replace(replace(toLower(substring(p.text, size(intent) + 2)), ';', ' '), ':', ' '), '.', ' '),
          ',', ' '), '/', ' '), ' ') WHERE word <> ''] AS words
WITH p, intent, reduce(seen = [], word IN words | CASE WHEN word IN seen THEN seen ELSE seen + word END) AS unique
SET p.terms = reduce(joined = substring(intent, 3), word IN unique | joined + ' ' + word);
DROP INDEX prescription_text IF EXISTS;
CREATE FULLTEXT INDEX prescription_text IF NOT EXISTS FOR (n:Prescription) ON EACH [n.text, n.terms, n.space]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
