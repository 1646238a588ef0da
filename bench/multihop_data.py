"""HotpotQA and MuSiQue development questions over their shared corpora of Wikipedia paragraphs
(../shared/data/multihop/README.md): each paragraph a document record, each question's gold paragraphs by id."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import MULTIHOP_DIR

DATASETS = ("hotpotqa", "musique")


@dataclass(frozen=True)
class Paragraph:
    id: str  # the document record's id, "p0042": its position in the corpus
    title: str
    text: str


@dataclass(frozen=True)
class Question:
    text: str
    gold: tuple[str, ...]  # ids of the paragraphs that support the answer


@dataclass(frozen=True)
class Dataset:
    name: str
    paragraphs: list[Paragraph]
    questions: list[Question]


def _paragraph_id(position: int) -> str:
    return f"p{position:04d}"


def _hotpotqa(raw: dict[str, Any]) -> tuple[list[Paragraph], list[Question]]:
    """`corpus` maps a title to its sentences; the gold paragraphs are the titles of the supporting facts."""
    paragraphs = [
        Paragraph(_paragraph_id(i), title, "".join(sentences).strip())
        for i, (title, sentences) in enumerate(raw["corpus"].items())
    ]
    by_title = {p.title: p.id for p in paragraphs}
    questions = [
        Question(q["question"], tuple(dict.fromkeys(by_title[title] for title, _ in q["supporting_facts"])))
        for q in raw["questions"]
    ]
    return paragraphs, questions


def _musique(raw: dict[str, Any]) -> tuple[list[Paragraph], list[Question]]:
    """`corpus` lists {title, text} (a title may name several paragraphs); the gold paragraphs are the question's
    paragraphs flagged `is_supporting`, found in the corpus by title and text."""
    paragraphs = [Paragraph(_paragraph_id(i), p["title"], p["text"].strip()) for i, p in enumerate(raw["corpus"])]
    by_content = {(p.title, p.text): p.id for p in paragraphs}
    questions = [
        Question(
            q["question"],
            tuple(
                dict.fromkeys(
                    by_content[(p["title"], p["paragraph_text"].strip())] for p in q["paragraphs"] if p["is_supporting"]
                )
            ),
        )
        for q in raw["questions"]
    ]
    return paragraphs, questions


def load(name: str, directory: Path = MULTIHOP_DIR) -> Dataset:
    if name not in DATASETS:
        raise ValueError(f"unknown dataset {name!r}: choose from {', '.join(DATASETS)}")
    with gzip.open(directory / f"{name}_dev50.json.gz", "rt") as handle:
        raw = json.load(handle)
    paragraphs, questions = _hotpotqa(raw) if name == "hotpotqa" else _musique(raw)
    return Dataset(name, paragraphs, questions)


def document_records(paragraphs: list[Paragraph]) -> list[dict[str, str]]:
    """One document record per paragraph, its title kept (engram/formats/records.py)."""
    return [{"type": "document", "id": p.id, "title": p.title, "text": p.text} for p in paragraphs]
