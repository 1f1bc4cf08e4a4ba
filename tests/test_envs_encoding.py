"""The encoder gives exactly the floats of its first, slower form (issue: learning
environments, the speed goal): that form is kept here as the reference, a card plane per
shifted mask in one big integer unpacked by numpy, and both are compared on every seat of
positions from random deals of several rule sets, privileged view included."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from durak import Game  # noqa: E402
from durak.cards import deck_mask  # noqa: E402
from durak.envs.encoding import Encoder  # noqa: E402
from durak.envs.episode import learning_rules  # noqa: E402
from durak.game import PHASES  # noqa: E402


def _view_args(g: Game, seat: object) -> list[object]:
    """The C helper's arguments for ``seat`` but the legal numbers, read straight from the
    game's fields (so that a test can hand it values the engine never would)."""
    return [
        seat,
        g._hands,
        g._known,
        g._att,
        g._unbeaten,
        g._tmask,
        g._discard,
        g._trump_card,
        g._bottom,
        len(g._talon) - g._tp,
        g.cap,
        g.out,
        g.attacker,
        g.defender,
        g.to_act,
        g._phase,
        g.bout,
        g._forced_take,
        g.tally,
    ]


def reference(enc: Encoder, g: Game, seat: int) -> np.ndarray:
    """The encoder as first written (documented layout, docs/envs.md)."""
    n, lo, nc = enc.players, enc.lo, enc.cards
    hands, known = g._hands, g._known
    hand = hands[seat]
    att = 0
    for c in g._att:
        att |= 1 << c
    unbeaten, table, discard = g._unbeaten, g._tmask, g._discard
    trump_bit = 1 << g._trump_card
    under = g._bottom >= 0
    planes = [hand, unbeaten, att & ~unbeaten, table & ~att, discard, trump_bit]
    others = [(seat + i) % n for i in range(1, n)]
    seen = hand | discard | table | (trump_bit if under else 0)
    for s in others:
        seen |= known[s]
    planes.append(deck_mask(enc.rules.deck) & ~seen)
    planes += [known[s] for s in others]
    if enc.privileged:
        planes += [hands[s] for s in others]
    rel = [(s - seat) % n for s in range(n)]
    flags = [0] * (5 + 4 * n + len(PHASES) + 2)
    flags[g._trump_card & 3] = 1
    flags[4] = int(under)
    for s in range(n):
        flags[5 + rel[s]] = int(g.out[s])
    if g.to_act is not None:
        flags[5 + n + rel[g.attacker]] = 1
        flags[5 + 2 * n + rel[g.defender]] = 1
        flags[5 + 3 * n + rel[g.to_act]] = 1
    flags[5 + 4 * n + g._phase] = 1
    flags[-2], flags[-1] = int(g.bout == 0), int(g._forced_take)
    big = 0
    for i, m in enumerate(planes):
        big |= (m >> lo) << (i * nc)
    for i, f in enumerate(flags):
        big |= f << (len(planes) * nc + i)
    bits = len(planes) * nc + len(flags)
    around = [(seat + i) % n for i in range(n)]
    limit = enc.rules.bout_limit
    talon = len(g._talon) - g._tp + int(under)
    values = [talon / nc, g.cap / limit, len(g._att) / limit]
    values += [hands[s].bit_count() / nc for s in around]
    values += (
        [min(g.tally[s] / 12.0, 1.0) for s in around]
        if enc.rules.scoring == "pogonny"
        else [0.0] * n
    )
    out = np.empty(bits + len(values), np.float32)
    out[:bits] = np.unpackbits(
        np.frombuffer(big.to_bytes((bits + 7) // 8, "little"), np.uint8),
        count=bits,
        bitorder="little",
    )
    out[bits:] = values
    return out


@pytest.mark.parametrize(
    "text",
    [
        "podkidnoy",
        "perevodnoy(players=4)",
        "podkidnoy(players=6,teams=3x3)",
        "pogonny(players=3)",
        "podkidnoy(deck=24,players=4)",
        "perevodnoy(deck=52,players=3)",
    ],
)
def test_encoder_matches_its_reference_form(text: str) -> None:
    rules = learning_rules(text)
    rng = random.Random(7)
    for enc in (Encoder(rules), Encoder(rules, privileged=True)):
        assert enc.size == len(enc.describe())
        for seed in range(6):
            g = Game(rules, seed=seed)
            while True:
                for seat in range(rules.players):
                    want = reference(enc, g, seat)
                    got = enc.encode(g, seat)
                    assert got.dtype == np.float32 and got.shape == want.shape
                    assert got.tobytes() == want.tobytes(), (text, seed, seat)
                    into = np.full(enc.size, 9.0, np.float32)
                    assert enc.encode(g, seat, into) is into and (into == want).all()
                if g.to_act is None:
                    break
                legal = g.legal_actions()
                g.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(
    "text",
    [
        "podkidnoy",
        "perevodnoy(players=4)",
        "pogonny(players=3)",
        "podkidnoy(deck=24,players=4)",
        "perevodnoy(deck=52,players=3)",
    ],
)
def test_c_arrays_match_the_reference_form(text: str) -> None:
    """The environments' C helper (durak/envs/_arrays.c, fed the game's own fields)
    makes exactly the reference floats, and a mask with 1 at exactly the legal numbers of
    the seat to act (all 0 for the others)."""
    from durak.envs.encoding import array_view
    from durak.envs.stepper import Stepper

    rules = learning_rules(text)
    if array_view(rules) is None:
        pytest.skip("the C helper is only used with the compiled engine (checked below)")
    rng = random.Random(3)
    for privileged in (False, True):
        enc, st = Encoder(rules, privileged), Stepper(rules, privileged)
        fill = array_view(rules, privileged)
        for seed in range(4):
            g = Game(rules, seed=seed)
            st.start(g)
            while True:
                for seat in range(rules.players):
                    x, mask = st.arrays(seat, fill)
                    assert x.dtype == np.float32 and mask.dtype == np.int8
                    assert x.tobytes() == reference(enc, g, seat).tobytes(), (text, seed, seat)
                    legal = st.legal if seat == g.to_act else []
                    assert mask.nonzero()[0].tolist() == sorted(legal)
                if g.to_act is None:
                    break
                st.play(st.legal[rng.randrange(len(st.legal))])


def test_c_arrays_are_built_with_the_compiled_engine() -> None:
    """Where the engine is compiled, so is the C helper (setup.py builds both): a build
    that silently lost it would make the environments slower and this fails."""
    from durak import build
    from durak.envs.encoding import array_view

    assert (array_view(learning_rules("podkidnoy")) is not None) == build.is_compiled()


def test_c_arrays_refuse_malformed_input_by_name() -> None:
    """Bad arguments to the C helper raise a clear error, never a crash or a wrong view;
    the helper survives a pickle (an env is copied with it)."""
    import pickle

    from durak import build

    if not build.is_compiled():
        pytest.skip("no C helper in the pure-Python build (checked above)")
    from durak.envs._arrays import Viewer
    from durak.envs.encoding import array_view

    rules = learning_rules("podkidnoy")
    view = array_view(rules)
    assert view is not None
    g = Game(rules, seed=2)
    args = [*_view_args(g, 0), [3]]
    x, mask = view(*args)
    assert mask.nonzero()[0].tolist() == [3] and x.size == Encoder(rules).size

    def bad(i: int, value: object) -> list[object]:
        return args[:i] + [value] + args[i + 1 :]

    with pytest.raises(ValueError, match="out of 0..1607"):
        view(*bad(19, [1608]))
    with pytest.raises(ValueError, match="seat 2 out of 0..1"):
        view(*bad(0, 2))
    with pytest.raises(TypeError, match="hands is a list of 2"):
        view(*bad(1, g._hands[:1]))
    with pytest.raises(ValueError, match="an int >= 0"):
        view(*bad(4, -1))
    with pytest.raises(ValueError, match="role's seat"):
        view(*bad(12, 5))
    with pytest.raises(TypeError, match="takes 20 arguments"):
        view(*args[:-1])
    with pytest.raises(ValueError, match="no such layout"):
        Viewer(7, 36, 16, 0, 30, False, False, 5, 6.0, 1608)
    again = pickle.loads(pickle.dumps(view))
    assert all((a == b).all() for a, b in zip(again(*args), view(*args), strict=True))


def test_c_writer_writes_the_rows_the_arrays_hold() -> None:
    """``write_fields`` (the vector env's: the state's fields one by one into a row of
    its buffers) writes the reference floats and the legal numbers' mask into exactly
    its row, clearing what the row held; bad input raises a clear error."""
    from durak.envs.bits import legal_indices
    from durak.envs.encoding import array_writer

    rules = learning_rules("perevodnoy(players=3)")
    write = array_writer(rules)
    if write is None:
        pytest.skip("no C helper in the pure-Python build")
    enc, rng = Encoder(rules), random.Random(5)
    obs = np.full((3, enc.size), 7.0, np.float32)
    masks = np.ones((3, 1608), np.int8)
    g = Game(rules, seed=4)
    while g.to_act is not None:
        legal = legal_indices(g)
        for seat in range(3):
            row = (seat + 1) % 3
            write(obs, masks, row, seat, legal if seat == g.to_act else [], *g.state())
            assert obs[row].tobytes() == reference(enc, g, seat).tobytes()
            assert masks[row].nonzero()[0].tolist() == (sorted(legal) if seat == g.to_act else [])
        g.play(g.moves()[rng.randrange(len(legal))])
    with pytest.raises(TypeError, match="takes 25 arguments"):
        write(obs, masks, 0, 0, [], *g.state()[:-1])
    with pytest.raises(ValueError, match="no row 3"):
        write(obs, masks, 3, 0, [], *g.state())
    with pytest.raises(ValueError, match="out of 0..1607"):
        write(obs, masks, 0, 0, [1608], *g.state())


def test_c_numbered_writer_numbers_as_the_encoding() -> None:
    """``write_moves`` (the vector env's learner view) numbers the engine's legal moves
    exactly as :func:`durak.envs.bits.legal_indices` does, in their order, writes the
    row as ``write_fields`` would, survives a pickle with its numbering, and refuses a
    number out of range or a call before ``numbering``."""
    import pickle

    from durak.envs.bits import legal_indices
    from durak.envs.encoding import _viewer, array_numbered_writer

    rules = learning_rules("perevodnoy(players=3)")
    write_moves = array_numbered_writer(rules)
    viewer = _viewer(rules, False)
    if write_moves is None or viewer is None:
        pytest.skip("no C helper in the pure-Python build")
    again = pickle.loads(pickle.dumps(write_moves))
    obs, masks = np.zeros((2, Encoder(rules).size), np.float32), np.zeros((2, 1608), np.int8)
    rng = random.Random(2)
    for seed in range(3):
        g = Game(rules, seed=seed)
        while g.to_act is not None:
            seat = g.to_act
            into = [0] * rng.randrange(12)  # (refilled in place, shorter or longer)
            for write in (write_moves, again):
                got = write(obs, masks, 1, seat, g.moves(), into, *g.state())
                assert got is into and into == legal_indices(g)
                assert write(obs, masks, 1, seat, g.moves(), None, *g.state()) == into
            viewer.write_fields(obs, masks, 0, seat, legal_indices(g), *g.state())
            assert (obs[0] == obs[1]).all() and (masks[0] == masks[1]).all()
            g.play(g.moves()[rng.randrange(len(g.moves()))])
    g = Game(rules, seed=1)
    k = 257 // len(g.moves()) + 1  # (more moves than the C helper's stack holds)
    into = [0, 0]
    assert write_moves(obs, masks, 0, g.to_act, g.moves() * k, into, *g.state()) is into
    assert into == legal_indices(g) * k
    with pytest.raises(TypeError, match="before numbering"):
        viewer.write_moves(obs, masks, 0, g.to_act, g.moves(), None, *g.state())
    viewer.numbering(lambda a: 1608)
    into = [5]
    with pytest.raises(ValueError, match="index_of gave 1608"):
        viewer.write_moves(obs, masks, 0, g.to_act, g.moves(), into, *g.state())
    assert into == [5]  # (nothing changed)
    with pytest.raises(TypeError, match="takes 26 arguments"):
        viewer.write_moves(obs, masks, 0, g.to_act, g.moves(), *g.state())


def test_c_arrays_handed_out_never_change() -> None:
    """The C helper writes an array it made before again only when nobody else can see
    it (no other reference, no weak one, shape, type and flags as made): every array a
    caller still holds, in any form, keeps the floats and mask it was handed; an array
    reshaped or made read-only by its last holder is never handed out again as it is;
    a view that failed half-way leaves no stale 1 in the next mask."""
    import weakref

    from durak import build
    from durak.envs.encoding import array_view
    from durak.envs.stepper import Stepper

    if not build.is_compiled():
        pytest.skip("no C helper in the pure-Python build (checked above)")
    rules = learning_rules("perevodnoy(players=3)")
    enc, st = Encoder(rules), Stepper(rules)
    fill = array_view(rules)
    rng = random.Random(5)
    g = Game(rules, seed=4)
    st.start(g)
    held: list[tuple[object, np.ndarray, np.ndarray]] = []  # (what is held, x, mask copies)
    weak = []
    step = 0
    while g.to_act is not None:
        seat = g.to_act
        x, mask = st.arrays(seat, fill)
        assert x.tobytes() == reference(enc, g, seat).tobytes()
        assert mask.nonzero()[0].tolist() == sorted(st.legal)
        kind = step % 6
        if kind == 0:
            held.append(((x, mask), x.copy(), mask.copy()))
        elif kind == 1:  # only views of them
            held.append(((x[:], mask.view(bool)), x.copy(), mask.copy()))
        elif kind == 2:  # only a weak reference
            weak.append((weakref.ref(x), x.copy()))
        elif kind == 3:  # reshaped in place, then dropped
            x.shape = (1, x.size)
        elif kind == 4:  # made read-only, then dropped
            mask.flags.writeable = False
        del x, mask
        st.play(st.legal[rng.randrange(len(st.legal))])
        step += 1
        fresh, fresh_mask = st.arrays(g.to_act if g.to_act is not None else 0, fill)
        assert fresh.shape == (enc.size,) and fresh.flags.writeable
        assert fresh_mask.flags.writeable
        del fresh, fresh_mask
    for arrays, x0, m0 in held:
        x, mask = arrays  # type: ignore[misc]
        assert x.tobytes() == x0.tobytes() and mask.view(np.int8).tobytes() == m0.tobytes()
    for ref, x0 in weak:
        x = ref()
        assert x is None or x.tobytes() == x0.tobytes()

    # arrays reshaped or made read-only by their last holders (every kept one at once)
    # are never handed out again as they are
    many = [st.arrays(0, fill) for _ in range(8)]
    for x, mask in many:
        x.shape = (1, x.size)
        mask.flags.writeable = False
    del many, x, mask
    again = [st.arrays(0, fill) for _ in range(8)]
    assert all(
        x.shape == (enc.size,) and x.flags.writeable and mask.flags.writeable for x, mask in again
    )
    del again

    # a failing view (an action number out of range, after some set) leaves no stale 1
    g = Game(rules, seed=9)
    st.start(g)
    args = _view_args(g, g.to_act)
    fill(*args, [3])
    with pytest.raises(ValueError, match="out of 0.."):
        fill(*args, [7, 8, 10**6])
    for _ in range(3):
        _, mask = fill(*args, [])
        assert not mask.any()
        del mask
