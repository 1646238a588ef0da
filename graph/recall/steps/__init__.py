"""The recall pipeline's steps, one module each; graph/recall/engine.py `PIPELINE` lists them in the order they run."""
