"""Health checks the property tests switch off: function-scoped fixtures are shared on purpose (a model built
once per test), and data generation on a loaded 2-core CI machine can be slow without anything being wrong."""

from __future__ import annotations

from hypothesis import HealthCheck

SUPPRESSED_CHECKS = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
