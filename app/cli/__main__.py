"""`python -m app.cli` runs the CLI as `engram` does."""

from app.cli import main

main()
