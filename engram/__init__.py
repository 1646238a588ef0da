"""Engram: shared domain pieces (settings, models, embeddings) used by the API, graph layer and workers."""
