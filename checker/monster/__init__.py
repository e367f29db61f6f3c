"""Monster check: where one monster moves and whom it attacks, with every option the players
may choose among, its focus, and the rulings applied.

Board: flat-topped hexes ``[column, row]`` in "odd-q" layout (see checker.hexgrid).

The parts, in the order a solve uses them:
  - ``request``: the request's model and ``parse()``;
  - ``movement``: board and movement (walking, jump, flying, teleport, icy slides, negative
    hexes);
  - ``attack``: attack hexes, range and line of sight;
  - ``context``: the one value (request, board, mover, attack rules, reachable hexes) every
    other part reads;
  - ``focus``: the focus and its tie-breaks;
  - ``targets``: whom it attacks from where (multi-target order, disadvantage, muddled);
  - ``plan``: destination and plan for one focus;
  - ``explain``: the steps stating the rules applied, with their citations;
  - ``solve``: ``compute()`` and ``run()``; ``schema``: the JSON schemas and the example.
A monster with no attack (``"attack": false``) finds focus and moves as for a melee attack and
attacks nobody (fh-edge-08). A teleporting monster ignores walls, figures and terrain on the
way (fh-clar-04, fh-clar-05).
"""

from __future__ import annotations

from checker.monster.context import NO_RECORD
from checker.monster.movement import FLYING_MAY_END_ON_OBSTACLE, Mover
from checker.monster.request import Enemy, MonsterRequest, MonsterRequestModel, parse
from checker.monster.result import MonsterResponse, MonsterResult, Option
from checker.monster.schema import EXAMPLE, REQUEST_SCHEMA, RESPONSE_SCHEMA
from checker.monster.solve import compute, run

# The check's models, as the registry and the OpenAPI document read them, and every ruling
# the solver applies.
Request, Response = MonsterRequestModel, MonsterResponse
RULINGS = frozenset(
    {
        "gh-da-3",
        "gh-da-4",
        "fh-nl-4",
        "fh-it-4",
        "fh-clar-02",
        "fh-clar-04",
        "fh-clar-05",
        *(f"fh-edge-{n:02d}" for n in range(1, 9)),
    }
)

__all__ = [
    "EXAMPLE",
    "FLYING_MAY_END_ON_OBSTACLE",
    "NO_RECORD",
    "REQUEST_SCHEMA",
    "RESPONSE_SCHEMA",
    "RULINGS",
    "Request",
    "Response",
    "Enemy",
    "MonsterRequest",
    "MonsterResult",
    "Mover",
    "Option",
    "compute",
    "parse",
    "run",
]
