"""The `user` argument every memory field takes (engram/scope.py: each user of a space has a memory of their own)."""

from __future__ import annotations

from typing import Annotated

import strawberry

UserArg = Annotated[
    str | None,
    strawberry.argument(
        description="Whose memory: a user of the space (each user's memory is apart from the others'); "
        "default: the space's shared memory. One user per request."
    ),
]
