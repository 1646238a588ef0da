// Intents that re-ingested prescriptions no longer solve, when no prescription of the space solves them any more:
// deleted as a forget deletes them, with the intents consolidation merged into them that nothing solves either.
// Returns the texts of the deleted intents (every process's intent trie drops them).
UNWIND $intent_ids AS intent_id
MATCH (i:Intent {space: $space, id: intent_id})
USING INDEX i:Intent(space, id)
WHERE NOT EXISTS { (i)<-[:SOLVES]-(:Prescription {space: $space}) }
CALL (i) {
  RETURN i AS gone
  UNION
  MATCH (i) (()-[:SUPERSEDES]->(:Intent {space: $space})){1,10} (merged)
  WHERE NOT EXISTS { (merged)<-[:SOLVES]-(:Prescription {space: $space}) }
  RETURN merged AS gone
}
WITH DISTINCT gone
WITH collect(gone) AS gone, collect(gone.text) AS texts
FOREACH (i IN gone | DETACH DELETE i)
RETURN texts
