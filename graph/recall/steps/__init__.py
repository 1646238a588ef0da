"""The recall pipeline's steps, one module each, in the order graph/recall/engine.py runs them: seed (with
abstract alongside), rank, context (with participants alongside), hop, diversify, prune."""
