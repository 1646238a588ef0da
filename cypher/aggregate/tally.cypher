// The count, the sums by unit and the per-period figures of an aggregate's events (graph/aggregate/): $events are
// the matching statements with duplicates folded ({id, value, unit}: the quantity each states, null where none).
// Each is dated from the graph (its own time, else when it was first told) and grouped by $period (day, week, month,
// year; null: no periods). A sum is only ever of one unit: units are never added together here.
UNWIND $events AS event
MATCH (p:Proposition {space: $space, id: event.id})
OPTIONAL MATCH (p)-[:PROVEN_BY]->(e:Episode {space: $space})
WITH event, p, min(e.occurred_at) AS told
WITH event, date(coalesce(p.valid_from, told)) AS day
WITH event, CASE $period
              WHEN 'day' THEN day
              WHEN 'week' THEN date.truncate('week', day)
              WHEN 'month' THEN date.truncate('month', day)
              WHEN 'year' THEN date.truncate('year', day)
            END AS period
WITH collect({id: event.id, period: period, value: event.value, unit: event.unit}) AS rows
CALL (rows) {
  UNWIND rows AS row
  WITH row WHERE row.unit IS NOT NULL
  WITH row.unit AS unit, sum(row.value) AS total, count(*) AS events
  ORDER BY unit
  RETURN collect({unit: unit, sum: total, count: events}) AS units
}
CALL (rows) {
  UNWIND rows AS row
  WITH row WHERE row.period IS NOT NULL
  WITH row.period AS period, row.unit AS unit, count(*) AS events, sum(row.value) AS total
  ORDER BY period, unit
  RETURN collect({period: toString(period), unit: unit, count: events, sum: total}) AS periods
}
RETURN size(rows) AS count, size([row IN rows WHERE row.unit IS NULL]) AS unquantified, units, periods
