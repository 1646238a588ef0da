// Which embedder wrote a memory space's vectors (ingest/record_embedder), and a re-embedding under way (its target
// family and how far it got: graph/reembed.py). No row fields set: a space written before spaces recorded it.
OPTIONAL MATCH (s:Space {space: $space, id: $space})
RETURN s.embedder_backend AS backend, s.embedder_variant AS variant, s.embedder_model AS model,
       s.embedder_family AS family, s.reembed_to AS reembed_to, s.reembed_cursor AS cursor
