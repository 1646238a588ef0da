"""Celery tasks, one module per job family."""
