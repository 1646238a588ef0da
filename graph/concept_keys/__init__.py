"""Concept keys in the graph: a space's key schema as decoding tries, and reading its keys from Neo4j."""
