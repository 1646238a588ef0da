// 0005: the text indexes also index `space`, so a full-text query is scoped to its space inside Lucene
// (`space:"<space>" AND text:(...)`). Before, a small space's query was answered from the shared index's
// global top hits and filtered afterwards: a large space using the same words crowded it out, and the query
// over-fetched up to 8,192 rows to find its own (10k space beside a 1M one: seed p50 ~400 ms).
// Idempotent: an index already on [text, space] is dropped and created again the same.
DROP INDEX proposition_text IF EXISTS;
DROP INDEX episode_text IF EXISTS;
DROP INDEX prescription_text IF EXISTS;
CREATE FULLTEXT INDEX proposition_text IF NOT EXISTS FOR (n:Proposition) ON EACH [n.text, n.space]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (n:Episode) ON EACH [n.text, n.space]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX prescription_text IF NOT EXISTS FOR (n:Prescription) ON EACH [n.text, n.space]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
