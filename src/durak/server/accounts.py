"""Player accounts: a name and a password, kept in the server's database.

Passwords are stored only as scrypt hashes (``hashlib.scrypt``, a memory-hard key
derivation function, with a random salt per account); a signed-in browser holds a
random session token, of which the database keeps only a SHA-256. Bots have accounts
too (``kind = "bot"``, named by their seat spec such as ``level:3``) so that people and
bots are rated on one scale (see :mod:`durak.server.ratings`).

An account joins a game through a seat: after creating or joining a table, the
browser links the seat it holds to the account it is signed in with.

>>> h = hash_password("correct horse")
>>> h.startswith("scrypt$"), verify_password("correct horse", h), verify_password("wrong", h)
(True, True, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .store import Store, now

metadata = MetaData()

# The starting rating (openskill's defaults: mu 25, sigma 25/3).
MU0 = 25.0
SIGMA0 = 25.0 / 3

accounts_t = Table(
    "durak_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False, unique=True),  # casefolded: one "Anna"
    Column("kind", String(8), nullable=False),  # person, bot
    Column("pw_hash", Text, nullable=True),
    Column("mu", Float, nullable=False, default=MU0),
    Column("sigma", Float, nullable=False, default=SIGMA0),
    Column("games", Integer, nullable=False, default=0),
    Column("created_at", DateTime, nullable=False),
)

sessions_t = Table(
    "durak_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("durak_accounts.id"), nullable=False),
    Column("created_at", DateTime, nullable=False),
)

seat_accounts_t = Table(
    "durak_seat_accounts",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("durak_accounts.id"), nullable=False),
)

# Every finished deal an account played, with its rating before and after (null when
# the deal was not rated): the personal history.
account_deals_t = Table(
    "durak_account_deals",
    metadata,
    Column("deal_id", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("durak_accounts.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("mu_before", Float, nullable=True),
    Column("sigma_before", Float, nullable=True),
    Column("mu_after", Float, nullable=True),
    Column("sigma_after", Float, nullable=True),
    Column("at", DateTime, nullable=False),
)

MIN_PASSWORD = 6
MAX_PASSWORD = 200
# scrypt's cost: 16 MiB of memory per hash, about 50 ms here.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1


class AccountError(ValueError):
    """A request about accounts refused: ``code`` names the reason for the browser
    (which words it in the player's language), ``field`` the form field it is about."""

    def __init__(
        self, code: str, message: str, field: str | None = None, status: int = 400
    ) -> None:
        super().__init__(message)
        self.code, self.field, self.status = code, field, status


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(
        password.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32
    )
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def verify_password(password: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, digest = stored.split("$")
    except ValueError:
        return False
    if kind != "scrypt":
        return False
    got = hashlib.scrypt(
        password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p), dklen=32
    )
    return hmac.compare_digest(got, base64.b64decode(digest))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_ready: set[int] = set()
_ready_lock = threading.Lock()


def ensure(engine: Engine) -> None:
    """Create the account tables in this database, once."""
    with _ready_lock:
        if id(engine) not in _ready:
            metadata.create_all(engine)
            _ready.add(id(engine))


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    kind: str
    mu: float
    sigma: float
    games: int

    def public(self) -> dict[str, Any]:
        from .ratings import display

        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "games": self.games,
            "rating": display(self.mu, self.sigma),
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
        }


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.kind, row.mu, row.sigma, row.games)


def clean_account_name(name: object) -> str:
    if not isinstance(name, str):
        raise AccountError("need_name", "name: a text of 1 to 32 characters", "name")
    text = "".join(ch for ch in name if ch.isprintable()).strip()
    if not 1 <= len(text) <= 32:
        raise AccountError("need_name", "name: a text of 1 to 32 characters", "name")
    return text


def _check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(
            "short_password", f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters", "password"
        )
    return password


def _new_session(c: Any, account_id: int) -> str:
    token = secrets.token_urlsafe(24)
    c.execute(
        insert(sessions_t).values(
            token_hash=token_hash(token), account_id=account_id, created_at=now()
        )
    )
    return token


def register(store: Store, name: object, password: object) -> tuple[Account, str]:
    """A new person's account and a session token for it."""
    ensure(store.engine)
    text = clean_account_name(name)
    pw = hash_password(_check_password(password))
    try:
        with store.engine.begin() as c:
            res = c.execute(
                insert(accounts_t).values(
                    name=text,
                    name_key=text.casefold(),
                    kind="person",
                    pw_hash=pw,
                    mu=MU0,
                    sigma=SIGMA0,
                    games=0,
                    created_at=now(),
                )
            )
            key = res.inserted_primary_key
            assert key is not None
            token = _new_session(c, int(key[0]))
            row = c.execute(select(accounts_t).where(accounts_t.c.id == key[0])).one()
    except IntegrityError:
        raise AccountError("name_taken", "name: that name is taken", "name", 409) from None
    return _account(row), token


def login(store: Store, name: object, password: object) -> tuple[Account, str]:
    ensure(store.engine)
    if not isinstance(name, str) or not isinstance(password, str):
        raise AccountError("bad_login", "wrong name or password", "password", 401)
    with store.engine.begin() as c:
        row = c.execute(
            select(accounts_t).where(
                accounts_t.c.name_key == name.strip().casefold(), accounts_t.c.kind == "person"
            )
        ).first()
        if row is None or not verify_password(password, row.pw_hash or ""):
            raise AccountError("bad_login", "wrong name or password", "password", 401)
        return _account(row), _new_session(c, row.id)


def logout(store: Store, token: str) -> None:
    ensure(store.engine)
    with store.engine.begin() as c:
        c.execute(delete(sessions_t).where(sessions_t.c.token_hash == token_hash(token)))


def by_token(store: Store, token: str | None) -> Account | None:
    """The account a session token signs in, or None."""
    if not token:
        return None
    ensure(store.engine)
    with store.engine.connect() as c:
        row = c.execute(
            select(accounts_t)
            .join(sessions_t, sessions_t.c.account_id == accounts_t.c.id)
            .where(sessions_t.c.token_hash == token_hash(token))
        ).first()
    return None if row is None else _account(row)


def by_id(store: Store, account_id: int) -> Account | None:
    ensure(store.engine)
    with store.engine.connect() as c:
        row = c.execute(select(accounts_t).where(accounts_t.c.id == account_id)).first()
    return None if row is None else _account(row)


def bot_account(c: Any, spec: str) -> Account:
    """The account of a bot (by its seat spec), made on first use."""
    key = f"bot:{spec}"
    row = c.execute(select(accounts_t).where(accounts_t.c.name_key == key)).first()
    if row is None:
        c.execute(
            insert(accounts_t).values(
                name=spec,
                name_key=key,
                kind="bot",
                pw_hash=None,
                mu=MU0,
                sigma=SIGMA0,
                games=0,
                created_at=now(),
            )
        )
        row = c.execute(select(accounts_t).where(accounts_t.c.name_key == key)).one()
    return _account(row)


def link_seat(store: Store, table_id: str, seat: int, account_id: int) -> None:
    """The person at ``seat`` of ``table_id`` plays as ``account_id`` from now on."""
    ensure(store.engine)
    with store.engine.begin() as c:
        c.execute(
            delete(seat_accounts_t).where(
                seat_accounts_t.c.table_id == table_id, seat_accounts_t.c.seat == seat
            )
        )
        c.execute(
            insert(seat_accounts_t).values(table_id=table_id, seat=seat, account_id=account_id)
        )


def seat_accounts(c: Any, table_id: str) -> dict[int, int]:
    return {
        r.seat: r.account_id
        for r in c.execute(select(seat_accounts_t).where(seat_accounts_t.c.table_id == table_id))
    }


def set_rating(c: Any, account_id: int, mu: float, sigma: float, played: bool) -> None:
    values: dict[str, Any] = {"mu": mu, "sigma": sigma}
    if played:
        values["games"] = accounts_t.c.games + 1
    c.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(**values))
