"""The recall pipeline's knobs: how wide each step searches and how the ranking is diversified."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RecallTuning:
    seed_k: int = 40
    concept_fanout: int = 8  # neighbours per activated concept
    expand_concepts: int = 20  # most activated concepts expanded back to knowledge
    per_concept: int = 12  # mentions per concept, closest to the query first
    propagation: float = 0.5  # share of activation passed over one association hop
    hop_decay: float = 0.5
    rerank_pool: int = 120
    # Concepts mentioned more often than this are too general to expand from (their idf is low anyway), and
    # scanning their mentions would dominate latency on large spaces.
    max_expand_df: int = 500
    # Expansion reads the vector of every mention of the concepts it expands (to take those closest to the
    # query): at most this many mentions per expansion, most activated concepts first. Bounds the step's cost on
    # large spaces, where mid-frequency concepts have hundreds of mentions each (100k synthetic space: 400
    # instead of 1,000 took p95 from 152 to 128 ms, and 99.3% of the top 10 stayed the same).
    expand_mentions: int = 400
    # Conversational context: the neighbouring utterances of the top items' episodes join the candidates
    # (0 turns it off).
    context_items: int = 10
    # Episodes per participant search, run when the query names someone who speaks in the top items (0: off).
    participant_k: int = 25
    # Entity pages (graph/recall/steps/pages.py): the documents whose title names a concept the top `page_items`
    # items mention join the candidates, each with its `page_passages` passages closest to the query, `page_k` in
    # all (page_items 0: off). HotpotQA / MuSiQue dev (bench.multihop, 50 questions each), R@5 / All@5: 81 / 64 ->
    # 85 / 72 and 62.5 / 32 -> 69.2 / 42 (page list weight 5; 6 and 7 within a question of it, 10 cost MuSiQue 4;
    # page_items 3, 8 or 10 a question or two worse). The pages the query names itself join too (list "named_page",
    # same limits): HotpotQA 85 / 72 -> 88 / 78, MuSiQue 69.2 / 42 -> 73.2 / 48; and the top items' own words are
    # looked up as titles besides their concepts: HotpotQA 88 / 78 -> 92 / 86, MuSiQue 73.2 / 48 -> 72.7 / 46 (tune
    # halves 84 / 72 -> 90 / 84 and 76.3 / 56 -> 77.3 / 56). Conversations and trajectories have no pages.
    page_items: int = 5
    page_passages: int = 3
    page_k: int = 40
    # When (graph/recall/steps/when.py): with the request's `now`, `when_k` episodes of the days a query names ("two
    # weeks ago", "last month") and `when_days` either side join the candidates (0: off): those holding a statement
    # dated then by its own words first, then those told then, closest to the query first.
    # LongMemEval dev (51 q, the question date as now): turn R@10 88.6 -> 90.5 (tune half 88.1 -> 91.7), R@5 and
    # session any@5 the same; 4 of the 51 questions name a relative time.
    when_k: int = 25
    when_days: int = 7
    # Search a large space's own indexes where it has them (graph/space_indexes.py); False: the shared ones
    # (benchmarks compare the two).
    own_indexes: bool = True
    # Score a small space's full-text hits with its own term statistics, not the shared index's
    # (graph/recall/bm25.py); False: the index's scores (benchmarks compare the two).
    space_statistics: bool = True
    # A small space's full-text hit counts in the fusion by how much of the query's distinctive words it holds: the
    # terms at most `distinctive_share` of the space's documents hold, by idf, against the hit holding most
    # (graph/recall/bm25.py `distinctive_coverage`); its vote is `distinctive_floor` plus the rest by that share to
    # `distinctive_exponent` (0: off, every hit a full vote). By rank alone, forty hits sharing a question's common
    # words voted almost like the one holding its rare name; in a space of a few documents no word is distinctive.
    # Same spaces, off -> on (exponent 1, share 0.02, floor 0.5): LongMemEval dev (51 q) turn R@5 / R@10 80.1 / 90.5
    # -> 83.0 / 91.0 (tune half 78.3 / 91.7 -> 83.6 / 92.6, report half 82.2 / 89.1 -> 82.2 / 89.1), knowledge update
    # newest-first 9 of 9 both. Tune half: share 0.01 / 0.03 / 0.05 / 0.1 and exponents 0.5 / 0.75 / 2 no better on
    # R@5 and R@10 together (0.01 and 0.03: 8 of 9 newest-first); floor 0, 0.25 and 0.5 tie, and floor 0 took LoCoMo
    # multi-hop 51.1 -> 50.0, below its bound. With floor 0.5: LoCoMo dev R@10 75.4 -> 76.1, multi-hop 51.1 -> 51.2,
    # adversarial 74.8 -> 74.4 (BM25 70.8); MuSiQue R@5 / All@5 71.0 / 40 -> 74.3 / 42; HotpotQA 94 / 90 -> 93 / 88;
    # procedures the same.
    distinctive_share: float = 0.02
    distinctive_exponent: float = 1.0
    distinctive_floor: float = 0.5
    # Maximal marginal relevance over the ranking (graph/recall/diversity.py): the weight of an item's closest
    # cosine to an item placed above it (0: off). The whole ranking (at most `rerank_pool` items) is reordered, so
    # the returned scores are the final ranking's and fall with the rank.
    # LoCoMo dev (bench.locomo_recall), same recall otherwise, under the earlier value weights and the 40 best items
    # reordered: R@10 all-no-adv 73.6 -> 74.0, multi-hop 48.8 -> 49.0, adversarial 71.1 -> 72.6, open-domain (51
    # questions) 50.3 -> 47.9.
    diversity: float = 0.25
    # A restatement (cosine at least `restatement` to the item it repeats, said by the same speaker, scored at least
    # `restatement_closeness` x that item) said later than that item goes just above it (graph/recall/diversity.py
    # `newer_restatements_first`; 0: off): what someone says now updates what they said before. LongMemEval dev
    # (51 q, asker on): knowledge update newest-first 4 -> 6 of 9, turn R@5 78.8 -> 79.7, R@10 88.6 -> 88.6 (tune
    # half: cosine 0.7 and 0.8 worse; closeness 0.8-0.9 the same, 0.93+ loses one). LoCoMo dev, same state: R@10
    # all-no-adv 75.5 -> 75.3, R@5 64.2 -> 63.9, multi-hop 50.9 -> 50.7, adversarial 69.5 -> 69.5; without the
    # closeness bound R@10 fell to 72.8 (a far weaker restatement moved up pushes everything between down).
    restatement: float = 0.75
    restatement_closeness: float = 0.9
    # A question about a state ("currently", "most recently", "previous"): the latest item about what the first item
    # is about (cosine at least `latest`, the same speaker, scored at least `latest_closeness` x the first) goes first
    # (graph/recall/diversity.py `latest_version_first`; 0: off). LongMemEval dev (51 q): knowledge-update newest-first
    # 6 -> 9 of 9, turn R@5 / R@10 / session any@5 unchanged; its 5 held-out knowledge-update questions 5 of 5 either
    # way; LoCoMo dev R@10 / multi-hop / adversarial unchanged.
    latest: float = 0.55
    latest_closeness: float = 0.4
    # A dense search returns its k nearest whatever their distance, so in a small space everything is some list's
    # top hit. Its vote counts by how well it matches: nothing at a cosine of `vote_floor` or below, fully from
    # `vote_full` (graph/recall/value.py `match_strength`). LoCoMo evidence turns: 2% below 0.2, median 0.48.
    vote_floor: float = 0.10
    vote_full: float = 0.25

    def __post_init__(self) -> None:
        # Checked when the engine is configured, not at its first recall.
        if not 0.0 <= self.diversity < 1.0:
            raise ValueError(f"diversity must be in [0, 1), got {self.diversity}")
