"""The GraphQL service: strawberry on FastAPI, served by uvicorn (`engram serve`)."""
