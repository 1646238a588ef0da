// 0009: embeddings stored as 32-bit floats. Ingestion writes them with db.create.setNodeVectorProperty from now on
// (ingest/merge_concepts); a plain SET, as before, stored 64-bit floats: twice the bytes for every exact scan of a space
// to read (826 propositions: 17 -> 11 ms of Neo4j CPU per scan) and in the store. The values were computed in 32 bits,
// so nothing is lost. Every label that carries one is rewritten in batches of 10,000 nodes (a large graph must not be
// one transaction); a failed batch fails the migration rather than leaving it recorded as done. Idempotent: a second
// run writes the same values.
CALL apoc.periodic.iterate(
  "MATCH (n:Proposition|Episode|Concept|Intent|Prescription) WHERE n.embedding IS NOT NULL RETURN n",
  "CALL db.create.setNodeVectorProperty(n, 'embedding', n.embedding)",
  {batchSize: 10000, parallel: false}
) YIELD failedBatches, errorMessages
CALL apoc.util.validate(failedBatches > 0, '0009: %s', [apoc.convert.toJson(errorMessages)])
RETURN failedBatches;
