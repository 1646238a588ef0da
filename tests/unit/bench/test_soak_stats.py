import pytest

from bench.soak_hostile import answered
from bench.soak_stats import Sample, foreign_strings, operation_figures, percentile, span, windowed_percentile


def test_percentile_is_nearest_rank_and_always_a_measured_value() -> None:
    values = [float(v) for v in range(100, 0, -1)]  # 100..1, unsorted
    assert percentile(values, 50) == 50
    assert percentile(values, 95) == 95
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile(values, 0) == 1
    assert percentile([3.0, 1.0, 2.0], 50) == 2  # ceil(1.5) = 2nd smallest
    assert percentile([7.0], 99) == 7
    few = [10.0, 20.0, 1000.0]
    assert percentile(few, 95) == 1000  # the slowest, not a blend toward it
    with pytest.raises(ValueError, match="no values"):
        percentile([], 50)
    with pytest.raises(ValueError, match="outside"):
        percentile([1.0], 101)


def test_operation_figures_count_errors_and_include_failed_requests_times() -> None:
    samples = [Sample(float(i), "recall", float(i + 1), i != 9) for i in range(10)]
    samples.append(Sample(0.0, "forget", 5.0, True))
    figures = operation_figures(samples)
    assert list(figures) == ["forget", "recall"]
    assert figures["recall"] == {
        "count": 10,
        "errors": 1,
        "p50_ms": 5.0,
        "p95_ms": 10.0,
        "p99_ms": 10.0,
        "max_ms": 10.0,
    }
    assert figures["forget"]["count"] == 1 and figures["forget"]["errors"] == 0


def test_windowed_percentile_groups_by_start_time_and_filters_operations() -> None:
    samples = [Sample(1.0, "recall", 10.0, True), Sample(4.0, "recall", 30.0, True), Sample(12.0, "recall", 7.0, True)]
    samples.append(Sample(2.0, "ingest", 999.0, True))
    assert windowed_percentile(samples, 5.0, 95, {"recall"}) == [(2.5, 30.0, 2), (12.5, 7.0, 1)]
    assert windowed_percentile(samples, 5.0, 95) == [(2.5, 999.0, 3), (12.5, 7.0, 1)]
    with pytest.raises(ValueError, match="positive"):
        windowed_percentile(samples, 0, 95)


def test_span_is_first_max_last() -> None:
    assert span([3.04, 9.96, 4.0]) == {"start": 3.0, "max": 10.0, "end": 4.0}
    assert span([]) == {"start": 0.0, "max": 0.0, "end": 0.0}


def test_foreign_strings_find_other_tenants_codewords_and_ids_anywhere_in_an_answer() -> None:
    answer = {
        "items": [
            {"id": "prop_1", "text": "Ana Quorvath moved to Oslo", "provenance": [{"sourceId": "src_mine"}]},
            {"id": "prop_2", "text": "Ben BLENSHIRE works as a luthier", "provenance": [{"sourceId": "src_theirs"}]},
        ],
        "src_theirs": "a key is not a value",
        "count": 3,
    }
    found = foreign_strings(answer, ["Blenshire"], {"src_theirs"})
    assert found == ["Ben BLENSHIRE works as a luthier", "src_theirs"]
    assert foreign_strings(answer, ["Tamsivel"], {"src_other"}) == []


def test_a_hostile_answer_is_named_by_its_first_root_fields_type() -> None:
    assert answered({"data": {"follow": {"__typename": "NotFound"}}}) == "answered_NotFound"
    assert answered({"data": {"nodes": [None, {"id": "x"}, None]}}) == "answered_1_of_3"
    assert answered({"data": {"node": None}}) == "answered_null"
    assert answered({"data": {"stats": {"episodes": 1}}}) == "answered"
