"""The agents' door: an MCP server whose tools call the GraphQL API (the same services, limits and auth)."""
