import argparse

import pytest

from bench.common import RESULTS_DIR
from bench.recall_latency import _result_name


def test_a_result_name_is_a_file_name_never_a_path() -> None:
    assert _result_name("recall_latency_own_indexes") == "recall_latency_own_indexes"
    before = sorted(p.name for p in RESULTS_DIR.iterdir())
    for bad in ("../outside", "/tmp/x", "a b", "", "x" * 81):
        with pytest.raises(argparse.ArgumentTypeError, match="letters, digits"):
            _result_name(bad)
    assert sorted(p.name for p in RESULTS_DIR.iterdir()) == before
