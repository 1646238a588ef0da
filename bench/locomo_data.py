"""LoCoMo questions with repaired evidence ids, and the turn texts flat baselines index."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


@dataclass(frozen=True)
class Question:
    sample_id: str
    text: str
    category: str
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Turn:
    dia_id: str
    text: str  # "Speaker: text [shares <caption>]", as the published baselines index it


def _repair(raw: str) -> list[str]:
    """'D8:6; D9:17' -> both; 'D:11:26' -> 'D11:26'; 'D30:05' -> 'D30:5'."""
    ids = []
    for part in re.split(r"[;,\s]+", raw.strip()):
        match = re.match(r"^D:?(\d+):0*(\d+)$", part)
        if match:
            ids.append(f"D{int(match.group(1))}:{int(match.group(2))}")
    return ids


def load(path: Path) -> tuple[dict[str, list[Turn]], list[Question]]:
    samples: list[dict[str, Any]] = json.loads(path.read_text())
    turns: dict[str, list[Turn]] = {}
    questions: list[Question] = []
    for sample in samples:
        conversation = sample["conversation"]
        sample_turns = []
        for key in sorted((k for k in conversation if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k[8:])):
            for turn in conversation[key]:
                caption = f" [shares {turn['blip_caption']}]" if turn.get("blip_caption") else ""
                sample_turns.append(Turn(turn["dia_id"], f"{turn['speaker']}: {turn['text']}{caption}"))
        turns[sample["sample_id"]] = sample_turns
        known = {t.dia_id for t in sample_turns}
        for qa in sample["qa"]:
            evidence = tuple(dict.fromkeys(e for raw in qa.get("evidence", []) for e in _repair(raw) if e in known))
            if evidence:
                questions.append(Question(sample["sample_id"], qa["question"], CATEGORIES[qa["category"]], evidence))
    return turns, questions
