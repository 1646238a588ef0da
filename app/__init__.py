"""The public surface: CLI, HTTP API and GraphQL."""
