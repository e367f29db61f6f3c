"""JSON schemas of the monster check's request (from its model) and response, and the example."""

from __future__ import annotations

from typing import Any

from checker.base import json_schema
from checker.monster.request import MonsterRequestModel
from checker.monster.result import MonsterResponse

REQUEST_SCHEMA: dict[str, Any] = json_schema(MonsterRequestModel)
RESPONSE_SCHEMA: dict[str, Any] = json_schema(MonsterResponse, "serialization")

EXAMPLE: dict[str, Any] = {
    "game": "frosthaven",
    "map": {
        "width": 7,
        "height": 5,
        "walls": [[3, 0], [3, 1], [3, 2]],
        "thin_walls": [],
        "obstacles": [[1, 3]],
        "traps": [[2, 2]],
        "hazardous": [],
        "difficult": [[4, 3]],
        "icy": [],
    },
    "monster": {"hex": [1, 1], "move": 2, "range": 0, "targets": 1},
    "allies": [[0, 2]],
    "enemies": [
        {"hex": [5, 1], "initiative": 30, "name": "Drifter"},
        {"hex": [0, 4], "initiative": 12, "name": "Blinkblade"},
    ],
}
