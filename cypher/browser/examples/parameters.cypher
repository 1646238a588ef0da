// Example parameter values for the exploration queries in a space (used by `engram browser`): the proposition
// with the most provenance and concepts, the most mentioned concept, the largest dimension and a proposition with
// a superseded history (the first proposition when there is none). Every pattern stays inside the space.
CALL () {
  OPTIONAL MATCH (p:Proposition {space: $space})
  WHERE p.status = 'active'
  RETURN p.id AS proposition
  ORDER BY COUNT { (p)-[:PROVEN_BY|MENTIONS]->({space: $space}) } DESC, p.recorded_at, p.id LIMIT 1
}
CALL () {
  OPTIONAL MATCH (c:Concept {space: $space})
  RETURN c.key AS key ORDER BY c.df DESC, COUNT { (c)-[:ASSOCIATED]-({space: $space}) } DESC, c.key LIMIT 1
}
CALL () {
  OPTIONAL MATCH (d:Dimension {space: $space})
  RETURN d.id AS dimension ORDER BY COUNT { (d)<-[:IN]-({space: $space}) } DESC, d.id LIMIT 1
}
CALL () {
  OPTIONAL MATCH (p:Proposition {space: $space})-[:SUPERSEDES]->(:Proposition {space: $space})
  RETURN p.id AS superseding ORDER BY p.recorded_at DESC, p.id LIMIT 1
}
RETURN proposition, key, dimension, coalesce(superseding, proposition) AS fact
