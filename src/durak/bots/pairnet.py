"""The learned players' network shape: ``Q(state, action)`` by a ReLU perceptron in numpy
whose first layer is split into a state part and an action part, so that a state is
multiplied once a decision, not once a legal action. The 2-player networks
(:class:`durak.bots.learned.QNet`) and the every-table one
(:class:`durak.bots.tablenet.TableNet`) are both this, over features of their own.

>>> import numpy as np
>>> w = {"w1": np.ones((3, 4), np.float32), "b1": np.zeros(4, np.float32),
...      "w2": np.ones((4, 1), np.float32), "b2": np.zeros(1, np.float32)}
>>> net = PairNet(w, state=2, width=1)
>>> states = np.array([[1.0, 0.0]], np.float32)
>>> net.batch_scores(states, np.array([[1.0], [-5.0]], np.float32), np.array([0, 0]))
array([8., 0.], dtype=float32)
"""

from __future__ import annotations

from typing import Any

from ..errors import DurakError

try:
    import numpy as np
except ImportError:  # pragma: no cover - the learned player's extras bring numpy
    np = None  # type: ignore[assignment]


class PairNet:
    """The weights ``w1`` (``state`` rows, then ``width`` rows for the action), ``b1``,
    then ``w2, b2, ...``; :class:`~durak.errors.DurakError` when ``w1`` does not take
    ``state + width`` features."""

    def __init__(self, weights: dict[str, Any], state: int, width: int) -> None:
        w1 = weights["w1"]
        if w1.shape[0] != state + width:
            raise DurakError(
                f"weights: first layer takes {w1.shape[0]} features, "
                f"this version makes {state + width}"
            )
        self.w1s, self.w1a, self.b1 = w1[:state], w1[state:], weights["b1"]
        self.rest = [
            (weights[f"w{i}"], weights[f"b{i}"]) for i in range(2, 10) if f"w{i}" in weights
        ]

    def batch_scores(self, states: Any, actions: Any, row: Any) -> Any:
        """Scores of ``actions`` (one row each) in the states ``states[row]``: many
        positions in one pass."""
        h = np.maximum(actions @ self.w1a + (states @ self.w1s + self.b1)[row], 0.0)
        last = len(self.rest) - 1
        for i, (w, b) in enumerate(self.rest):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h[:, 0]
