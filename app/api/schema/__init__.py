"""The GraphQL schema: types, queries, mutations and the job-progress subscription."""
