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
>>> verify_password(chr(0xD800), h)  # a lone surrogate is no password, not an error
False
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import unicodedata
import weakref
from dataclasses import dataclass
from datetime import timedelta
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

from ..errors import DurakError
from .store import Store, now, schema_lock

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

# Who held each person's seat when a deal started: the account linked to it then, the
# seat's token (hash) and the holder's address key (hashed). A deal is rated only for
# what this says; links and seats that change during the deal do not count for it.
deal_seats_t = Table(
    "durak_deal_seats",
    metadata,
    Column("deal_id", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("address", String(64), nullable=True),
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
# scrypt's cost for new hashes: N=2^15, r=8, p=3 (32 MiB, one of OWASP's equivalent
# settings to N=2^17, p=1). Stored hashes carry their own cost; an older, cheaper one is
# replaced at the next sign-in.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 3
SCRYPT_MAXMEM = 256 * 1024 * 1024
SESSION_DAYS = 30  # a session token signs in this long after it was issued


class AccountError(DurakError, ValueError):
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
        password.encode(),
        salt=salt,
        n=SCRYPT_N,
        r=SCRYPT_R,
        p=SCRYPT_P,
        dklen=32,
        maxmem=SCRYPT_MAXMEM,
    )
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def verify_password(password: object, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from. Anything that is not a
    password (not text, a lone surrogate that has no UTF-8) is simply not it."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt" or not isinstance(password, str):
            return False
        got = hashlib.scrypt(
            password.encode(),
            salt=base64.b64decode(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=32,
            maxmem=SCRYPT_MAXMEM,
        )
    except (ValueError, UnicodeError):
        return False
    return hmac.compare_digest(got, base64.b64decode(digest))


def outdated(stored: str) -> bool:
    """Whether ``stored`` was hashed at a lower cost than new hashes get."""
    parts = stored.split("$")
    return len(parts) != 6 or parts[1:4] != [str(SCRYPT_N), str(SCRYPT_R), str(SCRYPT_P)]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# The engines whose account tables exist. Weak references, not id(engine): an id is
# reused once its engine is freed, and a new database then looked ready ("no such table").
_ready: weakref.WeakSet[Engine] = weakref.WeakSet()
_ready_lock = threading.Lock()


def ensure(engine: Engine) -> None:
    """Create the account tables in this database, once."""
    with _ready_lock:
        if engine not in _ready:
            with schema_lock(engine) as c:
                metadata.create_all(c)
            _ready.add(engine)


def display(mu: float, sigma: float) -> int:
    """The rating players see: a cautious estimate of skill on a 1000-based scale.

    >>> display(25.0, 25.0 / 3)
    1000
    """
    return round(1000 + 40 * (mu - 3 * sigma))


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    kind: str
    mu: float
    sigma: float
    games: int

    def public(self) -> dict[str, Any]:
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


# Characters that show as nothing: fillers and joiners (Unicode "default ignorable"
# code points that are letters by category, so isprintable lets them through).
INVISIBLE = set("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u034f\u061c")
MAX_MARKS = 2  # combining marks on one letter
# Letters of other scripts drawn like Latin ones (a short form of Unicode's
# confusables.txt for the scripts players here write in), after NFKD and casefold.
CONFUSABLE = str.maketrans(
    {
        **dict(zip("авсеёнкмопрстухіјѕԁԛԝү", "abceehkmonpctyxijsdqwy", strict=True)),
        **dict(zip("αβεικνορτυχζ", "abeikvoptuxz", strict=True)),
        "0": "o",
        "1": "l",
        "|": "l",
        "ı": "i",
        "ɡ": "g",
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "_": "-",
    }
)


def skeleton(name: str) -> str:
    """The form two names share when they look alike: NFKD, no combining marks, case
    folded, look-alike letters of other scripts as Latin ones, no spaces.

    >>> skeleton("alice") == skeleton("\u0430lice") == skeleton("ＡＬＩＣＥ")
    True
    >>> skeleton("Вера") == skeleton("Bepa"), skeleton("Anna") == skeleton("Anne")
    (True, False)
    """
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    text = unicodedata.normalize("NFKD", text).translate(CONFUSABLE)
    return "".join(ch for ch in text if not ch.isspace())


def clean_account_name(name: object) -> str:
    """An account's name: NFKC, printable, no invisible letters, at most MAX_MARKS
    combining marks on a letter, 1 to 32 characters."""
    if not isinstance(name, str) or len(name) > 4 * 32:
        raise AccountError("need_name", "name: a text of 1 to 32 characters", "name")
    text = unicodedata.normalize("NFKC", name)
    if any(ch in INVISIBLE or unicodedata.category(ch) in ("Cf", "Cs", "Co") for ch in text):
        raise AccountError("bad_name", "name: no invisible characters", "name")
    text = " ".join("".join(ch for ch in text if ch.isprintable()).split())
    marks = 0
    for ch in text:
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks > MAX_MARKS:
            raise AccountError("bad_name", "name: too many accents on one letter", "name")
    if not 1 <= len(text) <= 32 or not skeleton(text):
        raise AccountError("need_name", "name: a text of 1 to 32 characters", "name")
    return text


def name_keys(name: object) -> tuple[str, ...]:
    """The keys an account of this name may be stored under: its skeleton, and the case
    folded name that accounts made before skeletons were stored under."""
    if not isinstance(name, str) or len(name) > 4 * 32:
        return ()
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    return tuple(dict.fromkeys([skeleton(text), name.strip().casefold()]))


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(
            "short_password", f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters", "password"
        )
    try:
        password.encode()
    except UnicodeError:
        raise AccountError(
            "bad_password", "password: text without lone surrogates", "password"
        ) from None
    return password


def _new_session(c: Any, account_id: int) -> str:
    token = secrets.token_urlsafe(24)
    c.execute(
        insert(sessions_t).values(
            token_hash=token_hash(token), account_id=account_id, created_at=now()
        )
    )
    return token


def _new_account(name: str, key: str, kind: str, pw_hash: str | None) -> Any:
    """The insert of a new account, at the starting rating, with no games."""
    return insert(accounts_t).values(
        name=name,
        name_key=key,
        kind=kind,
        pw_hash=pw_hash,
        mu=MU0,
        sigma=SIGMA0,
        games=0,
        created_at=now(),
    )


def create(store: Store, name: str, pw_hash: str) -> tuple[Account, str]:
    """A new person's account (``name`` cleaned, the password hashed by the caller) and a
    session token for it; AccountError 409 when a name that looks the same is taken."""
    ensure(store.engine)
    try:
        with store.engine.begin() as c:
            res = c.execute(_new_account(name, skeleton(name), "person", pw_hash))
            key = res.inserted_primary_key
            assert key is not None
            token = _new_session(c, int(key[0]))
            row = c.execute(select(accounts_t).where(accounts_t.c.id == key[0])).one()
    except IntegrityError:
        raise AccountError("name_taken", "name: that name is taken", "name", 409) from None
    return _account(row), token


def credentials(store: Store, name: object) -> tuple[int, str] | None:
    """The id and password hash of the person ``name`` signs in as, or None."""
    keys = name_keys(name)
    if not keys:
        return None
    ensure(store.engine)
    with store.engine.connect() as c:
        row = c.execute(
            select(accounts_t.c.id, accounts_t.c.pw_hash, accounts_t.c.name_key).where(
                accounts_t.c.name_key.in_(keys), accounts_t.c.kind == "person"
            )
        ).first()
    return None if row is None else (int(row.id), str(row.pw_hash or ""))


def open_session(
    store: Store, account_id: int, new_hash: str | None = None, close_others: bool = False
) -> tuple[Account, str]:
    """A new session of ``account_id``; with ``new_hash`` its password hash is replaced,
    with ``close_others`` every other session ends (a changed password)."""
    ensure(store.engine)
    with store.engine.begin() as c:
        if new_hash is not None:
            c.execute(
                update(accounts_t).where(accounts_t.c.id == account_id).values(pw_hash=new_hash)
            )
        if close_others:
            c.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
        token = _new_session(c, account_id)
        row = c.execute(select(accounts_t).where(accounts_t.c.id == account_id)).one()
    return _account(row), token


def logout(store: Store, token: str, everywhere: bool = False) -> None:
    """End the session ``token``; ``everywhere``: every session of its account."""
    ensure(store.engine)
    with store.engine.begin() as c:
        if everywhere:
            row = c.execute(
                select(sessions_t.c.account_id).where(sessions_t.c.token_hash == token_hash(token))
            ).first()
            if row is not None:
                c.execute(delete(sessions_t).where(sessions_t.c.account_id == row.account_id))
                return
        c.execute(delete(sessions_t).where(sessions_t.c.token_hash == token_hash(token)))


def by_token(store: Store, token: str | None) -> Account | None:
    """The account a session token signs in, or None (also once it has expired)."""
    if not token or len(token) > 128:
        return None
    ensure(store.engine)
    oldest = now() - timedelta(days=SESSION_DAYS)
    with store.engine.connect() as c:
        row = c.execute(
            select(accounts_t)
            .join(sessions_t, sessions_t.c.account_id == accounts_t.c.id)
            .where(sessions_t.c.token_hash == token_hash(token), sessions_t.c.created_at > oldest)
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
        c.execute(_new_account(spec, key, "bot", None))
        row = c.execute(select(accounts_t).where(accounts_t.c.name_key == key)).one()
    return _account(row)


def link_seat(store: Store, table_id: str, seat: int, account_id: int | None) -> None:
    """The person at ``seat`` of ``table_id`` plays as ``account_id`` (None: as no one)
    from the next deal on."""
    ensure(store.engine)
    with store.begin() as c:  # fenced, as every write of a table's state (Store.begin)
        c.execute(
            delete(seat_accounts_t).where(
                seat_accounts_t.c.table_id == table_id, seat_accounts_t.c.seat == seat
            )
        )
        if account_id is not None:
            c.execute(
                insert(seat_accounts_t).values(table_id=table_id, seat=seat, account_id=account_id)
            )


def linked_seats(store: Store, table_id: str) -> dict[int, int]:
    """Seat -> account of ``table_id`` (for a table brought back after a restart)."""
    ensure(store.engine)
    with store.engine.connect() as c:
        return seat_accounts(c, table_id)


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
