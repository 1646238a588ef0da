// A vector index of a space's own (graph/space_indexes.py). Index names and labels cannot be parameters in
// Cypher DDL: {index} and {label} are filled in from names derived from a hash of the space
// (hex digits only) and a fixed label, never from user text.
CREATE VECTOR INDEX {index} IF NOT EXISTS FOR (n:{label}) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
