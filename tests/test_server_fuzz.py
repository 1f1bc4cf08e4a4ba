"""Hypothesis against the message parser and the HTTP bodies: whatever arrives (deep
nesting, lone surrogates, huge numbers, random text), the answer is a message or the
protocol's error, never another exception, a 500 or a dropped connection."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("msgspec")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from durak.server import create_app
from durak.server.protocol import (
    MAX_STATE,
    Act,
    Claim,
    Hello,
    Ping,
    ProtocolError,
    decode_body,
    parse_client,
)
from durak.server.settings import Timings

from .test_server import FAST

pytestmark = [pytest.mark.timeout(120), pytest.mark.filterwarnings("ignore::DeprecationWarning")]

SURROGATE = st.integers(0xD800, 0xDFFF).map(lambda n: f"\\u{n:04x}")
HUGE = st.integers(min_value=-(10**60), max_value=10**60)
TEXT = st.text(max_size=20)
SCALARS = st.one_of(st.none(), st.booleans(), HUGE, st.floats(allow_nan=False), TEXT)
VALUES = st.recursive(
    SCALARS,
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(TEXT, kids, max_size=4)),
    max_leaves=20,
)
FIELDS = st.sampled_from(
    ["type", "v", "table", "token", "seat", "state", "action", "id", "invite", "x"]
)
KINDS = st.sampled_from(["hello", "act", "ping", "claim", "nope", ""])


@st.composite
def messages(draw: st.DrawFn) -> str:
    """Text that looks like a client message, with every kind of damage mixed in."""
    obj: dict[str, Any] = {"type": draw(st.one_of(KINDS, VALUES))}
    for k in draw(st.lists(FIELDS, max_size=5)):
        obj[k] = draw(VALUES)
    text = json.dumps(obj)
    damage = draw(st.sampled_from(["none", "nest", "surrogate", "cut", "int"]))
    if damage == "nest":
        depth = draw(st.integers(100, 3000))
        text = text[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
    elif damage == "surrogate":
        text = text[:-1] + f', "id": "{draw(SURROGATE)}"' + "}"
    elif damage == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif damage == "int":
        text = text[:-1] + ', "state": ' + "9" * draw(st.integers(17, 5000)) + "}"
    return text


def check(text: str | bytes) -> None:
    try:
        m = parse_client(text)
    except ProtocolError as e:
        assert e.code in ("malformed", "unknown_type", "version")
        return
    assert isinstance(m, Hello | Act | Ping | Claim)
    if isinstance(m, Act):
        assert 0 <= m.state <= MAX_STATE and len(m.action) <= 64
    # Whatever was accepted can be sent back as UTF-8 (no lone surrogates got through).
    for f in m.__struct_fields__:
        v = getattr(m, f)
        if isinstance(v, str):
            v.encode("utf-8")


@settings(max_examples=400, deadline=None)
@given(messages())
def test_parser_answers_every_message(text: str) -> None:
    check(text)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_parser_answers_any_text(text: str | bytes) -> None:
    check(text)


@settings(max_examples=200, deadline=None)
@given(messages())
def test_http_bodies_decode_or_refuse(text: str) -> None:
    try:
        decode_body(text.encode("utf-8", "surrogatepass"))
    except ProtocolError as e:
        assert e.code == "malformed"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("fuzz") / "f.db"
    with TestClient(create_app(f"sqlite:///{db}", timings=Timings(bot_pace=0), limits=FAST)) as c:
        yield c


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=st.one_of(
        messages(), st.builds(lambda v: json.dumps({"preset": "podkidnoy", "options": v}), VALUES)
    )
)
def test_create_and_join_never_answer_500(client: TestClient, body: str) -> None:
    for path in ("/api/tables", "/api/tables/nosuch/join"):
        r = client.post(
            path,
            content=body.encode("utf-8", "surrogatepass"),
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code in (201, 400, 404, 429), (r.status_code, r.text[:200])
        assert "error" in r.json() or r.status_code == 201
