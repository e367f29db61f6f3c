"""JSON schemas of the monster check's request and response, and the example request."""
from __future__ import annotations

from typing import Any

from checker.base import GAME_SCHEMA, response_schema
from checker.monster.request import MAX_SIDE

_HEX = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2,
        "maxItems": 2, "description": "[column, row], odd-q offset layout, flat-topped hexes."}
_HEXES = {"type": "array", "items": _HEX}

REQUEST_SCHEMA: dict[str, Any] = {
    "title": "MonsterRequest",
    "type": "object",
    "required": ["game", "map", "monster"],
    "properties": {
        "game": GAME_SCHEMA,
        "map": {
            "type": "object",
            "required": ["width", "height"],
            "properties": {
                "width": {"type": "integer", "minimum": 1, "maximum": MAX_SIDE},
                "height": {"type": "integer", "minimum": 1, "maximum": MAX_SIDE},
                "walls": {**_HEXES, "description": "Hexes that are not part of the room "
                                                   "(closed doors too). The map's own edge "
                                                   "is not a wall for line of sight."},
                "thin_walls": {"type": "array", "items": {"type": "array", "items": _HEX,
                                                          "minItems": 2, "maxItems": 2},
                               "description": "Wall lines along the edge between two "
                                              "neighbouring hexes."},
                "obstacles": _HEXES, "traps": _HEXES, "hazardous": _HEXES,
                "difficult": _HEXES,
                "icy": {**_HEXES, "description": "Frosthaven only."},
            },
            "additionalProperties": False,
        },
        "monster": {
            "type": "object",
            "required": ["hex", "move"],
            "properties": {
                "hex": _HEX,
                "move": {"type": "integer", "minimum": 0, "maximum": 20},
                "range": {"type": "integer", "minimum": 0, "maximum": 20, "default": 0,
                          "description": "0 = melee."},
                "targets": {"type": "integer", "minimum": 0, "maximum": 10, "default": 1,
                            "description": "At least 1 for a monster that attacks; any "
                                           "number (0 too) when 'attack' is false."},
                "attack": {"type": "boolean", "default": True,
                           "description": "false: the ability card has movement but no "
                                          "attack; the monster moves as for a melee attack."},
                "jump": {"type": "boolean", "default": False},
                "flying": {"type": "boolean", "default": False},
                "teleport": {"type": "boolean", "default": False,
                             "description": "The move is a teleport: it ignores walls, figures "
                                            "and terrain, counts hexes ignoring walls, ends "
                                            "where a figure may stand (with 'flying', on "
                                            "obstacles too); 'move' 0 is Teleport 0."},
                "muddled": {"type": "boolean", "default": False},
            },
            "additionalProperties": False,
            # targets may be 0 only for a monster without an attack
            "if": {"properties": {"attack": {"const": False}}, "required": ["attack"]},
            "else": {"properties": {"targets": {"minimum": 1}}},
        },
        "allies": {**_HEXES, "description": "The acting monster's allies."},
        "enemies": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["hex", "initiative", "name"],
                "properties": {
                    "hex": _HEX,
                    "initiative": {"type": "integer", "minimum": 0, "maximum": 99},
                    "name": {"type": "string", "minLength": 1},
                    "summoner": {"type": "string", "description": "For a summon: the name of "
                                 "the enemy who summoned it (it is focused before them)."},
                },
                "additionalProperties": False,
            },
        },
    },
    "additionalProperties": False,
}

RESPONSE_SCHEMA: dict[str, Any] = response_schema("MonsterResponse", {
    "focus": {**_HEXES, "description": "The focus; more than one hex only when the players "
                                       "choose the focus."},
    "options": {"type": "array", "items": {
        "type": "object", "required": ["destination", "attacks"],
        "properties": {
            "destination": {**_HEX, "description": "Where the monster ends its move."},
            "attacks": _HEXES,
            "toward": {**_HEXES, "description": "When it cannot attack its focus this turn: "
                                                "the hex(es) from which it would, that it "
                                                "moves toward; else empty."},
            "focus": {**_HEXES, "description": "The focus this option serves."}},
        "additionalProperties": False},
        "description": "Every equally valid choice; the players choose among them."},
    "explanation": {"type": "string"},
}, ["focus", "options", "explanation"])

EXAMPLE: dict[str, Any] = {
    "game": "frosthaven",
    "map": {"width": 7, "height": 5, "walls": [[3, 0], [3, 1], [3, 2]],
            "thin_walls": [], "obstacles": [[1, 3]], "traps": [[2, 2]],
            "hazardous": [], "difficult": [[4, 3]], "icy": []},
    "monster": {"hex": [1, 1], "move": 2, "range": 0, "targets": 1},
    "allies": [[0, 2]],
    "enemies": [{"hex": [5, 1], "initiative": 30, "name": "Drifter"},
                {"hex": [0, 4], "initiative": 12, "name": "Blinkblade"}],
}
