"""Engram in the slots agent frameworks give memory: each integration needs its framework's optional extra
(`pip install engram[langgraph]`) and talks to Engram's API through the generated client (clients/python)."""
