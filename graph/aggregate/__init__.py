"""Aggregation: questions that count, add up, compare or list over everything remembered."""
