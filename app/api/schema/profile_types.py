"""`profile`: what memory believes about a user (and the people and things they told of) now, slot by slot, and what
it believed before (graph/profile.py)."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated

import strawberry

from app.api.context import MAX_USER_CHARS
from app.api.errors import InvalidArgument
from app.api.schema.nodes import Info
from app.api.schema.outcomes import InvalidInput, invalid
from app.api.schema.provenance_types import ProvenanceEpisode
from graph import profile as profiles


@strawberry.type(description="One version of a slot's value: a fact, with the episodes that told it.")
class ProfileFact:
    proposition_id: strawberry.ID
    text: str = strawberry.field(description="the proposition's text")
    predicate: str = strawberry.field(description="the predicate, lemmatised ('live in', 'work at')")
    value: str = strawberry.field(description="the value ('Graz'); empty for a correction that named none")
    value_type: str = strawberry.field(description="PERSON, ORG, GPE, DATE, QUANTITY, THING, ... (empty: not typed)")
    polarity: bool = strawberry.field(description="false for a negated fact ('I don't own a car')")
    status: str = strawberry.field(description="active, or superseded")
    valid_from: datetime | None = strawberry.field(description="when it became true in the world")
    valid_to: datetime | None = strawberry.field(description="when it stopped being true (a replaced version)")
    superseded_by: strawberry.ID | None = strawberry.field(description="the proposition that replaced it")
    reason: str | None = strawberry.field(description="why it was replaced: changed, updated, merge, correction")
    provenance: list[ProvenanceEpisode] = strawberry.field(description="the episodes that told it, oldest first")

    @staticmethod
    def of(fact: profiles.ProfileFact) -> ProfileFact:
        return ProfileFact(
            proposition_id=strawberry.ID(fact.id),
            text=fact.text,
            predicate=fact.predicate,
            value=fact.value,
            value_type=fact.value_type,
            polarity=fact.polarity,
            status=fact.status,
            valid_from=fact.valid_from,
            valid_to=fact.valid_to,
            superseded_by=strawberry.ID(fact.superseded_by) if fact.superseded_by else None,
            reason=fact.reason,
            provenance=[ProvenanceEpisode.of(p) for p in fact.provenance],
        )


@strawberry.type(description="One attribute of a subject (home, employer, an open slot named by its frame): the fact "
                 "that holds now and the versions it replaced.")  # fmt: skip
class ProfileSlot:
    subject: str
    slot: str
    current: ProfileFact | None = strawberry.field(
        description="the fact that holds now; null when every version was replaced (an ended state: 'I sold my car')"
    )
    also_current: list[ProfileFact] = strawberry.field(
        description="other values that hold now too (a plural slot: 'I also have a dog'), newest first"
    )
    history: list[ProfileFact] = strawberry.field(description="the earlier versions of the slot, newest first")

    @staticmethod
    def of(slot: profiles.ProfileSlot) -> ProfileSlot:
        return ProfileSlot(
            subject=slot.subject,
            slot=slot.slot,
            current=ProfileFact.of(slot.current) if slot.current else None,
            also_current=[ProfileFact.of(f) for f in slot.also_current],
            history=[ProfileFact.of(f) for f in slot.history],
        )


@strawberry.type(description="What memory holds about one subject: a slot per attribute.")
class ProfileSubject:
    subject: str = strawberry.field(description="whose attributes: the teller's name for 'I', or who they told of")
    facts: int = strawberry.field(description="fact versions memory holds about the subject, current and replaced")
    slots: list[ProfileSlot] = strawberry.field(description="slots with a current fact first, then by name")


@strawberry.type(description="A user's profile: each slot's current fact with its history, grouped by subject.")
class Profile:
    user: str
    subjects: list[ProfileSubject] = strawberry.field(
        description="the user's own facts first (the subject named as the user, else the one with the most facts)"
    )
    truncated: bool = strawberry.field(
        description=f"true when memory holds more than {profiles.MAX_PROFILE_FACTS} fact versions: ask per subject"
    )

    @staticmethod
    def of(found: profiles.Profile) -> Profile:
        return Profile(
            user=found.user,
            subjects=[
                ProfileSubject(subject=s.subject, facts=s.facts, slots=[ProfileSlot.of(slot) for slot in s.slots])
                for s in found.subjects
            ],
            truncated=found.truncated,
        )


ProfilePayload = Annotated[Profile | InvalidInput, strawberry.union("ProfilePayload")]


def _name_problem(name: str, value: str | None) -> str | None:
    """What is wrong with a user's or a subject's name (as `user` arguments are held: ApiContext.for_user)."""
    if value is None:
        return None
    if not value.strip():
        return f"{name}: 1-{MAX_USER_CHARS} printable characters, got a blank string"
    if len(value) > MAX_USER_CHARS:
        return f"{name}: at most {MAX_USER_CHARS} characters, got {len(value)}"
    if not value.isprintable():
        at = next(i for i, c in enumerate(value) if not c.isprintable())
        return f"{name}: printable characters only, got U+{ord(value[at]):04X} at position {at}"
    return None


@strawberry.type
class ProfileQuery:
    @strawberry.field(
        description="A user's profile: for each subject memory knows (the user first) and each of its slots, the fact "
        "that holds now (value, type, since when, the episodes that told it) and the versions it replaced. Events are "
        "no profile entries. An unknown user has an empty profile."
    )
    async def profile(
        self,
        info: Info,
        user: Annotated[str, strawberry.argument(description="whose profile: a user of the space")],
        subject: Annotated[
            str | None,
            strawberry.argument(description="only this subject (as memory names it, any case); default: all"),
        ] = None,
    ) -> ProfilePayload:
        problems = [p for p in (_name_problem("user", user), _name_problem("subject", subject)) if p]
        if problems:
            return invalid(problems)
        try:
            info.context.for_user(user)
        except InvalidArgument as exc:  # another user named earlier in the request
            return invalid([str(exc)])
        found = await asyncio.to_thread(profiles.read_profile, info.context.reader.run, user, subject)
        return Profile.of(found)
