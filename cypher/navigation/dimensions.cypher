MATCH (d:Dimension {space: $space})
RETURN d.id AS id, d.label AS label, d.summary AS summary, COUNT { (d)<-[:IN]-(:Concept {space: $space}) } AS concepts
ORDER BY concepts DESC, label
