from typing import Any

class Viewer:
    size: int
    actions: int
    def __init__(
        self,
        players: int,
        cards: int,
        lo: int,
        full: int,
        flags: int,
        privileged: bool,
        pogonny: bool,
        phases: int,
        limit: float,
        actions: int,
    ) -> None: ...
    def view(self, *fields: Any) -> tuple[Any, Any]: ...
    def write(
        self, obs: Any, masks: Any, row: int, seat: int, state: tuple[Any, ...], legal: list[int]
    ) -> None: ...
    def write_fields(
        self, obs: Any, masks: Any, row: int, seat: int, legal: list[int], *state: Any
    ) -> None: ...
    def numbering(self, index_of: Any) -> None: ...
    def write_moves(
        self,
        obs: Any,
        masks: Any,
        row: int,
        seat: int,
        moves: list[Any],
        into: list[int] | None,
        *state: Any,
    ) -> list[int]: ...
