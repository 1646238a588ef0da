// A full-text index of a space's own (graph/space_indexes.py), analysed as the shared ones are (schema 0005);
// only the text: every node it holds is of the space. {index} and {label}: as in create_vector_index.
CREATE FULLTEXT INDEX {index} IF NOT EXISTS FOR (n:{label}) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
