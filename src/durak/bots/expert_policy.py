"""Moved: the expert's rules are written once, in :mod:`durak.bots.expert`
(:func:`~durak.bots.expert.expert_action`, :func:`~durak.bots.expert.expert_rollout`).
This name stays only until :mod:`durak.bots.ismcts` imports them from there."""

from .expert import expert_action, expert_rollout

__all__ = ["expert_action", "expert_rollout"]
