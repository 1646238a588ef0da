"""How a batch is cut into write transactions (graph/memory_writer.py `plan_parts`)."""

from __future__ import annotations

import numpy as np

from engram.models import Episode, Prescription, Proposition, Source, SourceKind
from graph.memory_writer import ROWS_PER_TRANSACTION, SOURCES_PER_TRANSACTION, MemoryBatch, plan_parts

SPACE = "s"


def _batch(sources: list[Source], episodes: list[Episode], propositions: list[Proposition]) -> MemoryBatch:
    def zeros(n: int) -> np.ndarray:
        return np.zeros((n, 4), dtype=np.float32)

    return MemoryBatch(
        space=SPACE, sources=sources, episodes=episodes, episode_vectors=zeros(len(episodes)), concepts=[],
        concept_vectors=zeros(0), propositions=propositions, proposition_vectors=zeros(len(propositions)),
        intents=[], intent_vectors=zeros(0), prescriptions=[], prescription_vectors=zeros(0),
    )  # fmt: skip


def _document(source_id: str, passages: int, facts_per_passage: int) -> tuple[Source, list[Episode], list[Proposition]]:
    source = Source(space=SPACE, id=source_id, kind=SourceKind.DOCUMENT, external_id=source_id)
    episodes = [
        Episode(space=SPACE, id=f"{source_id}-e{n}", source_id=source_id, seq=n, text=f"p{n}") for n in range(passages)
    ]
    facts = [
        Proposition(space=SPACE, id=f"{e.id}-f{k}", text=f"{e.text} fact {k}", episode_ids=[e.id], concept_keys=["k"])
        for e in episodes
        for k in range(facts_per_passage)
    ]
    return source, episodes, facts


def test_a_small_chunk_is_one_part_and_retires_what_it_left() -> None:
    source, episodes, facts = _document("d", passages=3, facts_per_passage=2)
    (part,) = plan_parts(_batch([source], episodes, facts))
    assert [e["id"] for e in part.episodes] == [e.id for e in episodes]
    assert len(part.propositions) == 6 and len(part.mentions) == 6
    assert part.sequence == [{"prev": "d-e0", "next": "d-e1"}, {"prev": "d-e1", "next": "d-e2"}]
    assert part.lengths == [{"id": "d", "episodes": 3}]


def test_a_large_document_is_cut_between_passages_in_order() -> None:
    source, episodes, facts = _document("d", passages=90, facts_per_passage=6)
    # A fact proven by an early and a late passage goes in with the late one, when both exist.
    both = Proposition(space=SPACE, id="both", text="both", episode_ids=["d-e1", "d-e80"], concept_keys=[])
    parts = plan_parts(_batch([source], list(reversed(episodes)), [*facts, both]))
    # 90 passages and 541 facts: cut between passages once a part holds ROWS_PER_TRANSACTION rows (a passage and its
    # facts are 7 or 8 rows, so no part holds more than that many beyond it).
    assert len(parts) >= 631 // (ROWS_PER_TRANSACTION + 8)
    assert all(len(p.episodes) + len(p.propositions) < ROWS_PER_TRANSACTION + 8 for p in parts)
    assert [e["seq"] for p in parts for e in p.episodes] == list(range(90))  # each passage once, in order
    assert sorted(f["id"] for p in parts for f in p.propositions) == sorted([f.id for f in facts] + ["both"])
    for part in parts:  # every fact with its last passage
        written = {e["id"] for e in part.episodes}
        assert all(f["episode_ids"][-1] in written for f in part.propositions)
    # NEXT links go across the cuts: 89 links, each once.
    links = [(s["prev"], s["next"]) for p in parts for s in p.sequence]
    assert links == [(f"d-e{n}", f"d-e{n + 1}") for n in range(89)]
    # Only the last part retires (the record's full length, known once every passage is in).
    assert [p.lengths for p in parts] == [None] * (len(parts) - 1) + [[{"id": "d", "episodes": 90}]]
    assert all(p.sources == parts[0].sources for p in parts)


def test_a_chunk_with_a_trajectory_stays_whole() -> None:
    source, episodes, facts = _document("d", passages=90, facts_per_passage=6)
    trajectory = Source(space=SPACE, id="t", kind=SourceKind.TRAJECTORY, external_id="t")
    step = Episode(space=SPACE, id="t-e0", source_id="t", seq=0, text="open the drawer")
    batch = _batch([source, trajectory], [*episodes, step], facts)
    batch.prescriptions = [
        Prescription(
            space=SPACE,
            id="rx",
            text="open it",
            terms="open",
            intent_id="i",
            steps=["open"],
            return_score=5.0,
            episode_ids=["t-e0"],
        )
    ]
    batch.prescription_vectors = np.zeros((1, 4), dtype=np.float32)
    (part,) = plan_parts(batch)
    assert len(part.episodes) == 91 and [p["id"] for p in part.prescriptions] == ["rx"]


def test_chunks_of_sources_keep_their_size() -> None:
    # One passage each and no facts: 40 rows a chunk, under ROWS_PER_TRANSACTION, so each chunk is one part.
    assert SOURCES_PER_TRANSACTION < ROWS_PER_TRANSACTION
    documents = [_document(f"d{n:03}", passages=1, facts_per_passage=0) for n in range(SOURCES_PER_TRANSACTION + 5)]
    parts = plan_parts(
        _batch([d[0] for d in documents], [e for d in documents for e in d[1]], [f for d in documents for f in d[2]])
    )
    assert [len(p.sources) for p in parts] == [SOURCES_PER_TRANSACTION, 5]
    assert [len(p.episodes) for p in parts] == [SOURCES_PER_TRANSACTION, 5]
