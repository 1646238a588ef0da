"""Navigation for agents that walk memory: dimensions -> concept pages -> propositions, typed links."""

from __future__ import annotations

import asyncio

import strawberry
from strawberry.scalars import JSON

from app.api.pagination import Connection, decode_cursor, page_size
from app.api.schema.json import to_json
from app.api.schema.nodes import Concept, Dimension, Info, Node, Proposition, node_from_row
from graph.navigation import MAX_ASSOCIATED, LinkType, Navigator
from graph.navigation import ConceptPage as NavigatorPage

strawberry.enum(LinkType)  # registers the graph's own enum: one list of link types


def navigator(info: Info) -> Navigator:
    services = info.context.services
    info.context.extra_queries += 1
    return Navigator(services.driver, services.database, info.context.space, services.settings.neo4j.read_timeout_s)


async def _propositions(info: Info, ids: list[str]) -> list[Proposition]:
    found = await info.context.loaders.node.load_many(ids)
    return [Proposition.from_row(row[1]) for row in found if row is not None]


@strawberry.type(description="A concept in a dimension, with a short summary from its best propositions.")
class ConceptCard:
    concept: Concept
    summary: list[str]


@strawberry.type(description="A region of memory with its concepts, most important first.")
class DimensionPage:
    dimension: Dimension
    concept_count: int

    @strawberry.field
    async def concepts(self, info: Info, first: int = 20, after: str | None = None) -> Connection[ConceptCard]:
        size = page_size(first, info.context.services.settings.api.max_page)
        offset = decode_cursor(after)
        rows = await asyncio.to_thread(navigator(info).browse_dimension, str(self.dimension.id), size + 1, offset)
        concepts = await info.context.loaders.node.load_many([r.id for r in rows])
        cards = [
            ConceptCard(concept=Concept.from_row(found[1]), summary=r.summary)
            for r, found in zip(rows, concepts, strict=True)
            if found is not None
        ]
        return Connection.from_page(cards, offset, size, lambda card: card, self.concept_count)


@strawberry.type(description="A neighbouring concept and the association's weight (co-occurrence x idf x idf).")
class Association:
    key: str
    weight: float


@strawberry.type(description="A concept page: the concept, its place, its neighbours and its propositions.")
class ConceptPage:
    concept: Concept
    dimension: Dimension | None
    associated: list[Association] = strawberry.field(description=f"strongest first, at most {MAX_ASSOCIATED}")
    aliases: list[str]

    @strawberry.field(description="Active propositions that mention the concept, oldest first.")
    async def propositions(self, info: Info, first: int = 20, after: str | None = None) -> Connection[Proposition]:
        size = page_size(first, info.context.services.settings.api.max_page)
        offset = decode_cursor(after)
        # Only the page of propositions: the concept itself was read when this page was made.
        views = await asyncio.to_thread(navigator(info).concept_propositions, self.concept.key, size + 1, offset)
        propositions = await _propositions(info, [p.id for p in views])
        return Connection.from_page(propositions, offset, size, lambda p: p, self.concept.df)


@strawberry.type(description="A typed link from a node to a neighbour.")
class Link:
    type: LinkType
    outgoing: bool
    properties: JSON
    node: Node


async def concept_page_of(info: Info, page: NavigatorPage) -> ConceptPage:
    found = await info.context.loaders.node.load_many([page.id, *([page.dimension_id] if page.dimension_id else [])])
    concept, dimension = found[0], found[1] if len(found) > 1 else None
    associated = page.associated  # the strongest MAX_ASSOCIATED, strongest first: cut in Cypher
    return ConceptPage(
        concept=Concept.from_row(concept[1]) if concept else Concept.from_row(page.model_dump()),
        dimension=Dimension.from_row(dimension[1]) if dimension else None,
        associated=[Association(key=a["key"], weight=float(a["weight"] or 0.0)) for a in associated],
        aliases=page.aliases,
    )


def link_of(type_name: str, outgoing: bool, properties: dict[str, object], label: str, row: dict[str, object]) -> Link:
    return Link(
        type=LinkType(type_name), outgoing=outgoing, properties=to_json(properties), node=node_from_row(label, row)
    )
