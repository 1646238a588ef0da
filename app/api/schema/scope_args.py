"""The scope arguments of memory fields (engram/scope.py): `user` (each user of a space has a memory of their own),
and the agent, session and metadata filters."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry
from pydantic import ValidationError
from strawberry.scalars import JSON

from app.api.errors import InvalidArgument
from engram.scope import ScopeFilter

UserArg = Annotated[
    str | None,
    strawberry.argument(
        description="Whose memory: a user of the space (each user's memory is apart from the others'); "
        "default: the space's shared memory. One user per request."
    ),
]
MetadataArg = Annotated[
    JSON | None,
    strawberry.argument(description="exact-match filter on metadata (a flat map); combined with the others by AND"),
]
AgentArg = Annotated[str | None, strawberry.argument(description="only what was made with this agent")]
SessionArg = Annotated[str | None, strawberry.argument(description="only what was said in this session")]


def scope_filter(agent: str | None, session: str | None, metadata: Any) -> ScopeFilter:
    """The filter, or InvalidArgument naming the field at fault."""
    try:
        return ScopeFilter(agent=agent, session=session, metadata=metadata if metadata is not None else {})
    except ValidationError as exc:
        raise InvalidArgument(
            "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False))
        ) from exc
