// A dimension (a community of concepts found by Graph Data Science during consolidation) with its 40 most
// important concepts and the ASSOCIATED links between them. Shows a graph. `space_overview` lists the dimensions.
// Parameters: $space (memory space); $dimension (a dimension id, or words from its label, case-insensitive).
MATCH (d:Dimension {space: $space})
WHERE d.id = $dimension OR toLower(d.label) CONTAINS toLower($dimension)
WITH d ORDER BY d.id = $dimension DESC, COUNT { (d)<-[:IN]-() } DESC LIMIT 1
MATCH member = (c:Concept {space: $space})-[:IN]->(d)
WITH d, member, c ORDER BY coalesce(c.importance, 0.0) DESC, c.df DESC, c.key LIMIT 40
WITH d, collect(member) AS members, collect(c) AS concepts
CALL (concepts) {
  UNWIND concepts AS a
  MATCH link = (a)-[:ASSOCIATED]->(b:Concept {space: $space})
  WHERE b IN concepts
  RETURN collect(link) AS associations
}
RETURN d AS dimension, members, associations
