// Replace the space's dimensions: one per community, labelled by its most important concepts.
MATCH (old:Dimension {space: $space}) DETACH DELETE old
WITH count(*) AS _
UNWIND $communities AS community
MERGE (d:Dimension {space: $space, id: community.id})
SET d.label = community.label, d.summary = community.summary, d.updated_at = datetime()
WITH d, community
UNWIND community.members AS member
MATCH (c:Concept {space: $space, id: member.id})
USING INDEX c:Concept(space, id)
SET c.importance = member.importance
MERGE (c)-[:IN]->(d)
RETURN count(DISTINCT d) AS dimensions
