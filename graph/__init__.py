"""Neo4j access and the memory-graph algorithms."""
