"""Fixtures the whole suite shares: the throwaway database and Redis servers, started
once per session (tests/services.py) and only if a test asks for them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from . import services


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A PostgreSQL server's URL (tests/services.py)."""
    yield from services.postgres()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A Redis server's URL (tests/services.py)."""
    yield from services.redis()
