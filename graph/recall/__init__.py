"""Recall: abstraction/specificity interleaved multi-hop retrieval over a space's memory graph."""
