import gc

from engram.runtime import settle_heap


def test_settle_heap_takes_what_is_allocated_out_of_the_collector_s_reach() -> None:
    loaded = [{"model": n} for n in range(1000)]  # start-up state: lives as long as the process
    gc.unfreeze()
    try:
        settle_heap()
        frozen = gc.get_freeze_count()
        assert frozen >= len(loaded)
        assert not any(loaded[0] is o for o in gc.get_objects(generation=2))  # full collections no longer walk it
    finally:
        gc.unfreeze()
