// A batch of an export's relationships of one type ({type}) from nodes of one label ({from}) to nodes of one label
// ({to}) (graph/vector_import.py fills them in from validated names), looked up by the (space, id) constraints.
UNWIND $rows AS r
MATCH (a:{from} {space: $space, id: r.a})
USING INDEX a:{from}(space, id)
MATCH (b:{to} {space: $space, id: r.b})
USING INDEX b:{to}(space, id)
MERGE (a)-[x:{type}]->(b)
SET x += r.props
