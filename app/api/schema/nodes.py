"""The memory graph's node types. Nested fields go through the request's DataLoaders."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any

import strawberry

from app.api.context import ApiContext
from app.api.pagination import Connection, decode_cursor, page_size
from engram.models import KnowledgeStatus
from graph.lookup import Row

Info = strawberry.Info[ApiContext, None]


strawberry.enum(KnowledgeStatus, description="superseded facts stay for asOf queries")


@strawberry.interface(description="Anything in the memory graph, addressable by its id.")
class Node:
    id: strawberry.ID


@strawberry.type(description="One standardized step: a conversation turn, a document passage or a trajectory step.")
class Episode(Node):
    external_id: str = strawberry.field(description="the id given at ingest, e.g. an external turn id such as D1:3")
    source_id: strawberry.ID
    seq: int
    speaker: str
    text: str
    occurred_at: datetime | None
    observation: str
    action: str
    reward: float | None
    subgoal: str

    @staticmethod
    def from_row(row: Row) -> Episode:
        return Episode(
            id=strawberry.ID(row["id"]),
            external_id=row.get("external_id") or "",
            source_id=strawberry.ID(row.get("source_id") or ""),
            seq=int(row.get("seq") or 0),
            speaker=row.get("speaker") or "",
            text=row.get("text") or "",
            occurred_at=row.get("occurred_at"),
            observation=row.get("observation") or "",
            action=row.get("action") or "",
            reward=row.get("reward"),
            subgoal=row.get("subgoal") or "",
        )

    @strawberry.field(description="The source (session, document, trajectory) this episode belongs to.")
    async def source(self, info: Info) -> Source | None:
        found = await info.context.loaders.node.load(str(self.source_id))
        return Source.from_row(found[1]) if found else None

    @strawberry.field(description="The knowledge this episode proves.")
    async def knowledge(self, info: Info) -> list[Annotated[Knowledge, strawberry.union("Knowledge")]]:
        rows = await info.context.loaders.knowledge.load(str(self.id))
        return [knowledge_from_row(row["label"], row) for row in rows]


_KIND = re.compile(r"\s+:[a-z]+$")  # an open slot's kind of value: "rent from :thing" (engram/facts/frames.py)


def attribute_of(slot: str) -> str:
    """A slot as a reader names the attribute: a seed slot as it is ("home"), an open one without its kind of value
    ("rent from :thing" -> "rent from")."""
    return _KIND.sub("", slot).strip() or slot


@strawberry.type(description="A proposition read as an atomic fact (docs/supersession.md, 'Facts'): whose attribute, "
                 "which attribute, what value.")  # fmt: skip
class Fact:
    subject: str = strawberry.field(description="whose attribute: the teller's name for 'I', or who they told of")
    attribute: str = strawberry.field(
        description="the attribute it fills, readable: a seed slot (home, employer, partner, car, ...) or the verb and "
        "preposition it is told with ('rent from')"
    )
    value: str = strawberry.field(description="the value ('Graz'); empty where the statement named none")
    value_type: str | None = strawberry.field(description="PERSON, ORG, GPE, DATE, QUANTITY, THING, ... (null: none)")
    aspect: str | None = strawberry.field(description="'state' (holds until replaced) or 'event' (happened)")
    polarity: bool = strawberry.field(description="false for a negated fact ('I don't own a car')")
    ends: list[str] = strawberry.field(description="old values it names as ended ('moved from Porto': Porto)")

    @staticmethod
    def of(row: Row | None) -> Fact | None:
        """The fact a proposition's properties hold (subject, slot, object, value_type, aspect, polarity, ends); None
        for a proposition that is no fact (no slot: a sentence that parsed into none, a correction)."""
        if not row or not row.get("slot"):
            return None
        return Fact(
            subject=str(row.get("subject") or ""),
            attribute=attribute_of(str(row["slot"])),
            value=str(row.get("object") or ""),
            value_type=row.get("value_type") or None,
            aspect=row.get("aspect") or None,
            polarity=row.get("polarity") is not False,
            ends=[str(v) for v in row.get("ends") or []],
        )


@strawberry.type(description="One self-contained fact ('knowing that'), proven by episodes.")
class Proposition(Node):
    text: str
    status: KnowledgeStatus
    subject: str
    valid_from: datetime | None = strawberry.field(description="when it became true in the world")
    valid_to: datetime | None = strawberry.field(description="when it stopped being true (superseded facts)")
    recorded_at: datetime | None = strawberry.field(description="when the memory learnt it")
    expired_at: datetime | None = strawberry.field(description="when the memory stopped believing it")
    confidence: float
    importance: float
    superseded_by: strawberry.ID | None = strawberry.field(
        description="the proposition that replaced it (a superseded one: a later fact, an update or a correction)"
    )
    fact: Fact | None = strawberry.field(description="the atomic fact it states; null for a proposition that is none")

    @staticmethod
    def from_row(row: Row) -> Proposition:
        return Proposition(
            id=strawberry.ID(row["id"]),
            text=row.get("text") or "",
            status=KnowledgeStatus(row.get("status") or "active"),
            subject=row.get("subject") or "",
            valid_from=row.get("valid_from"),
            valid_to=row.get("valid_to"),
            recorded_at=row.get("recorded_at"),
            expired_at=row.get("expired_at"),
            confidence=float(row.get("confidence", 0.7) or 0.0),
            importance=float(row.get("importance", 0.5) or 0.0),
            superseded_by=strawberry.ID(row["superseded_by"]) if row.get("superseded_by") else None,
            fact=Fact.of(row),
        )

    @strawberry.field(description="The episodes that prove it (provenance), in time order.")
    async def provenance(self, info: Info) -> list[Episode]:
        return [Episode.from_row(row) for row in await info.context.loaders.provenance.load(str(self.id))]

    @strawberry.field(description="The concept keys it mentions.")
    async def concepts(self, info: Info) -> list[Concept]:
        return [Concept.from_row(row) for row in await info.context.loaders.concepts.load(str(self.id))]


@strawberry.type(description="One ordered part of a procedure: a subgoal of its trajectory and the steps pursuing it.")
class PrescriptionPart:
    order: int = strawberry.field(description="0 for the first part")
    intent: str = strawberry.field(description="the subgoal it pursues (the task itself where none was given)")
    steps: list[str]


def prescription_parts(row: Row) -> list[PrescriptionPart]:
    """The parts stored as two lists (engram/models.py Prescription); none for a prescription written without."""
    steps, parts, start = list(row.get("steps") or []), [], 0
    for order, (intent, end) in enumerate(zip(row.get("part_intents") or [], row.get("part_ends") or [], strict=True)):
        parts.append(PrescriptionPart(order=order, intent=intent, steps=steps[start:end]))
        start = end
    return parts


@strawberry.type(description="A reusable procedure ('knowing how') that solves an intent: a whole trajectory.")
class Prescription(Node):
    text: str
    steps: list[str] = strawberry.field(description="every step, in order")
    parts: list[PrescriptionPart] = strawberry.field(description="the steps by subgoal, in order")
    return_score: float = strawberry.field(description="1-10, from the rewards of the trajectory")
    intent_id: strawberry.ID

    @staticmethod
    def from_row(row: Row) -> Prescription:
        return Prescription(
            id=strawberry.ID(row["id"]),
            text=row.get("text") or "",
            steps=list(row.get("steps") or []),
            parts=prescription_parts(row),
            return_score=float(row.get("return_score") or 1.0),
            intent_id=strawberry.ID(row.get("intent_id") or ""),
        )

    @strawberry.field(description="The trajectory steps it was learnt from.")
    async def provenance(self, info: Info) -> list[Episode]:
        return [Episode.from_row(row) for row in await info.context.loaders.provenance.load(str(self.id))]

    @strawberry.field
    async def intent(self, info: Info) -> Intent | None:
        found = await info.context.loaders.node.load(str(self.intent_id))
        return Intent.from_row(found[1]) if found else None


@strawberry.type(description="A goal that prescriptions solve.")
class Intent(Node):
    text: str

    @staticmethod
    def from_row(row: Row) -> Intent:
        return Intent(id=strawberry.ID(row["id"]), text=row.get("text") or "")


@strawberry.type(description="A schema key: a normalised concept, unique in its space.")
class Concept(Node):
    key: str
    name: str
    df: int = strawberry.field(description="how many propositions mention it")
    idf: float
    importance: float = strawberry.field(description="PageRank over concept associations (0 until consolidated)")

    @staticmethod
    def from_row(row: Row) -> Concept:
        return Concept(
            id=strawberry.ID(row["id"]),
            key=row.get("key") or "",
            name=row.get("name") or "",
            df=int(row.get("df") or 0),
            idf=float(row.get("idf") or 0.0),
            importance=float(row.get("importance") or 0.0),
        )


@strawberry.type(description="One ingested unit: a conversation session, a document or a trajectory.")
class Source(Node):
    kind: str
    external_id: str
    title: str
    created_at: datetime | None

    @staticmethod
    def from_row(row: Row) -> Source:
        return Source(
            id=strawberry.ID(row["id"]),
            kind=row.get("kind") or "",
            external_id=row.get("external_id") or "",
            title=row.get("title") or "",
            created_at=row.get("created_at"),
        )

    @strawberry.field(description="Its episodes in order.")
    async def episodes(self, info: Info, first: int = 20, after: str | None = None) -> Connection[Episode]:
        size = page_size(first, info.context.services.settings.api.max_page)
        offset = decode_cursor(after)
        rows, total = await info.context.loaders.source_episodes.load((str(self.id), offset, size + 1))
        return Connection.from_page(rows, offset, size, Episode.from_row, total)


@strawberry.type(description="A top-level region of memory: a community of associated concepts.")
class Dimension(Node):
    label: str
    summary: str

    @staticmethod
    def from_row(row: Row) -> Dimension:
        return Dimension(id=strawberry.ID(row["id"]), label=row.get("label") or "", summary=row.get("summary") or "")


Knowledge = Proposition | Prescription

_FROM_ROW: dict[str, Any] = {
    "Proposition": Proposition.from_row,
    "Episode": Episode.from_row,
    "Concept": Concept.from_row,
    "Source": Source.from_row,
    "Prescription": Prescription.from_row,
    "Intent": Intent.from_row,
    "Dimension": Dimension.from_row,
}


def node_from_row(label: str, row: Row) -> Node:
    node: Node = _FROM_ROW[label](row)
    return node


def knowledge_from_row(label: str, row: Row) -> Proposition | Prescription:
    return Prescription.from_row(row) if label == "Prescription" else Proposition.from_row(row)
