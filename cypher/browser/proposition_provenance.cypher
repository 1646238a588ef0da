// A proposition with its provenance: the episodes that prove it, the source (conversation session, document,
// trajectory) each episode belongs to, and the concepts the proposition mentions. Shows a graph.
// Parameters: $space (memory space); $proposition (a proposition id, or words from its text, case-insensitive:
// up to 5 matching propositions are shown).
MATCH (p:Proposition {space: $space})
WHERE p.id = $proposition OR toLower(p.text) CONTAINS toLower($proposition)
WITH p ORDER BY p.id = $proposition DESC, p.status = 'active' DESC, p.recorded_at DESC LIMIT 5
OPTIONAL MATCH proof = (p)-[:PROVEN_BY]->(:Episode {space: $space})-[:PART_OF]->(:Source {space: $space})
WITH p, collect(proof) AS provenance
OPTIONAL MATCH mention = (p)-[:MENTIONS]->(:Concept {space: $space})
RETURN p AS proposition, provenance, collect(mention) AS concepts
