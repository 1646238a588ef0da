"""How many threads the native math libraries of this process use: torch's OpenMP pool (embedding) and numpy's BLAS
(cosines and diversification in recall, similarity in consolidation).

Both libraries keep their idle threads spinning for a while after each parallel region. On a few cores shared by the
API, Neo4j and the workers, a second thread for small products (a query's forward pass, a few dozen vectors) takes the
same wall time and twice the CPU, and under load every spinning thread holds a core someone's request is waiting for:
numpy's default two BLAS threads about doubled a recall's CPU against one, and were slower even when idle (figures
in docs/tuning.md). Parallelism comes from serving requests side by side instead.
"""

from __future__ import annotations


def limit_math_threads(threads: int) -> None:
    """Caps torch's intra-op threads and every BLAS and OpenMP library loaded in this process at `threads`
    (process-wide). A library loaded later keeps its default: call this once the embedding model is loaded (it brings
    scipy's BLAS and scikit-learn's OpenMP besides numpy's and torch's)."""
    import torch
    from threadpoolctl import threadpool_limits

    torch.set_num_threads(threads)
    threadpool_limits(limits=threads)  # applied now, kept until the process ends


def math_threads() -> dict[str, int]:
    """The most threads any loaded library of each kind would use now: `torch`, `blas`, `openmp`."""
    import torch
    from threadpoolctl import threadpool_info

    pools = threadpool_info()
    most = {
        api: max((int(p["num_threads"]) for p in pools if p["user_api"] == api), default=0)
        for api in ("blas", "openmp")
    }
    return {"torch": torch.get_num_threads(), **most}
