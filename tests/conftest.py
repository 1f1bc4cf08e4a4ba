"""Fixtures the whole suite shares: the throwaway database and Redis servers, started
once per session (tests/services.py) and only if a test asks for them; and Hypothesis
held to no clock (no deadline on an example, no health check on how fast examples are
made), so that a busy machine makes the property tests slower, never red."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from . import services

settings.register_profile("unhurried", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("unhurried")


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A PostgreSQL server's URL (tests/services.py)."""
    yield from services.postgres()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A Redis server's URL (tests/services.py)."""
    yield from services.redis()
