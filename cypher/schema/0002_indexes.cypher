// 0002: vector (cosine, all-MiniLM-L6-v2 = 384 dimensions), full-text and range indexes.
// Neo4j 5.26 vector search cannot filter inside the index: queries over-fetch and filter by space.
CREATE VECTOR INDEX proposition_embedding IF NOT EXISTS FOR (n:Proposition) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX concept_embedding IF NOT EXISTS FOR (n:Concept) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX intent_embedding IF NOT EXISTS FOR (n:Intent) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX prescription_embedding IF NOT EXISTS FOR (n:Prescription) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS FOR (n:Episode) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE FULLTEXT INDEX proposition_text IF NOT EXISTS FOR (n:Proposition) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (n:Episode) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX concept_name IF NOT EXISTS FOR (n:Concept) ON EACH [n.key, n.name]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}};
CREATE FULLTEXT INDEX prescription_text IF NOT EXISTS FOR (n:Prescription) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE RANGE INDEX space_space IF NOT EXISTS FOR (n:Space) ON (n.space);
CREATE RANGE INDEX source_space IF NOT EXISTS FOR (n:Source) ON (n.space);
CREATE RANGE INDEX episode_space IF NOT EXISTS FOR (n:Episode) ON (n.space);
CREATE RANGE INDEX proposition_space IF NOT EXISTS FOR (n:Proposition) ON (n.space);
CREATE RANGE INDEX concept_space IF NOT EXISTS FOR (n:Concept) ON (n.space);
CREATE RANGE INDEX intent_space IF NOT EXISTS FOR (n:Intent) ON (n.space);
CREATE RANGE INDEX prescription_space IF NOT EXISTS FOR (n:Prescription) ON (n.space);
CREATE RANGE INDEX dimension_space IF NOT EXISTS FOR (n:Dimension) ON (n.space);
CREATE RANGE INDEX episode_occurred_at IF NOT EXISTS FOR (n:Episode) ON (n.space, n.occurred_at);
CREATE RANGE INDEX proposition_status IF NOT EXISTS FOR (n:Proposition) ON (n.space, n.status);
CREATE RANGE INDEX proposition_valid_from IF NOT EXISTS FOR (n:Proposition) ON (n.space, n.valid_from);
CREATE RANGE INDEX proposition_recorded_at IF NOT EXISTS FOR (n:Proposition) ON (n.space, n.recorded_at);
CREATE RANGE INDEX concept_key IF NOT EXISTS FOR (n:Concept) ON (n.space, n.key);
