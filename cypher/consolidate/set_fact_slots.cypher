// A change's new value takes the slot of the value it ended ("traded the Volvo for a Kia": the Kia is the car).
UNWIND $slots AS s
MATCH (p:Proposition {space: $space, id: s.id})
USING INDEX p:Proposition(space, id)
SET p.slot = s.slot
