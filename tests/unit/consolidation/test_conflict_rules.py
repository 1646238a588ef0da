"""Claims, compatibility and reliability of conflicting propositions."""

from __future__ import annotations

from datetime import UTC, datetime

from graph.consolidation.conflicts import claim_of, compatible, plan_conflicts, reliability
from graph.consolidation.model import PropositionView


def view(pid: str, text: str, day: int = 1, support: int = 1, quality: float = 0.7, **kw: str) -> PropositionView:
    return PropositionView(
        id=pid,
        text=text,
        valid_from=datetime(2023, 1, day, tzinfo=UTC),
        support=support,
        source_quality=quality,
        subject=kw.get("subject", ""),
        predicate=kw.get("predicate", ""),
        object=kw.get("object", ""),
    )


def test_claims_from_text() -> None:
    claim = claim_of(view("a", "Caroline now lives in Boston with her partner."))
    assert claim is not None and (claim.subject, claim.predicate, claim.object) == ("caroline", "lives in", "boston")
    moved = claim_of(view("b", "Caroline moved to New York City last year."))
    assert moved is not None and (moved.predicate, moved.object) == ("lives in", "new york city")
    fav = claim_of(view("c", "Melanie's favourite book is Charlotte's Web."))
    assert fav is not None and (fav.predicate, fav.object) == ("favourite book", "charlotte web")
    age = claim_of(view("d", "Jon is 34 years old."))
    assert age is not None and (age.predicate, age.object) == ("age", "34")


def test_no_claim_from_ordinary_sentences() -> None:
    assert claim_of(view("a", "Caroline moved to a new apartment.")) is None  # not a place name
    assert claim_of(view("b", "Caroline went to a support group yesterday.")) is None


def test_explicit_triples_are_used() -> None:
    claim = claim_of(view("a", "whatever", subject="Ann", predicate="works_at", object="Acme Corp"))
    assert claim is not None and (claim.subject, claim.predicate, claim.object) == ("ann", "works at", "acme corp")
    assert claim_of(view("b", "whatever", subject="Ann", predicate="likes", object="tea")) is None  # many-valued


def test_compatible_objects() -> None:
    assert compatible("new york", "new york city")
    assert not compatible("boston", "denver")
    assert compatible("nyc", "new york city", lambda a, b: {a, b} == {"nyc", "new york city"})


def test_reliability_prefers_recent_then_supported() -> None:
    old = view("old", "Ann lives in Boston.", day=1)
    new = view("new", "Ann lives in Denver.", day=20)
    claims = [c for c in (claim_of(old), claim_of(new)) if c]
    scores = reliability(claims)
    assert scores["new"] > scores["old"]
    # Same time: more supporting episodes and a better source win.
    a = view("a", "Ann lives in Boston.", day=5, support=4, quality=0.85)
    b = view("b", "Ann lives in Denver.", day=5, support=1)
    scores = reliability([c for c in (claim_of(a), claim_of(b)) if c])
    assert scores["a"] > scores["b"]


def test_plan_supersedes_only_incompatible_claims() -> None:
    views = [
        view("boston", "Ann lives in Boston.", day=1),
        view("denver", "Ann lives in Denver.", day=20),
        view("denver2", "Ann currently lives in Denver, Colorado.", day=10),
        view("bob", "Bob lives in Boston.", day=2),
    ]
    plans = plan_conflicts(views)
    assert [(p.survivor, p.replaced, p.reason) for p in plans] == [("denver", "boston", "conflict")]
    assert plans[0].score > 0
