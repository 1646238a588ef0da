"""Celery app and job pipelines."""
