"""Process set-up for long-running serving processes."""

from __future__ import annotations

import gc


def settle_heap() -> None:
    """Takes everything allocated so far (the embedding model, torch, the driver: ~0.5M objects) out of the cyclic
    garbage collector's reach, once start-up has loaded it and before serving.

    A full (generation 2) collection walks every tracked object: with the model loaded one took longer than a whole
    recall, stalling whichever recall it landed in; with start-up's objects frozen, a few milliseconds
    (docs/tuning.md). Frozen objects are never collected, which suits what lives as long as the process.
    """
    gc.collect()
    gc.freeze()
