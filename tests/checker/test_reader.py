"""Tests of the question reader (checker.reader): rules questions in seven languages read into
rules-checker requests, their computed results and summaries, what is missing, and the
questions that ask for no computation (which must read as None)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from checker import run_check
from checker.reader import Reading, computed, read_question, with_game
from checker.reader.lexicon import LANGS, VOCAB_DIR, fold, lexicon
from checker.reader.scan import scan, tokenize
from tests.conftest import REPO

FH, GH = "frosthaven", "gloomhaven"
RESULT_KEY = {
    "damage": "damage",
    "advantage": "chosen",
    "initiative": "order",
    "exhaustion": "exhausted",
}


# --- expected requests, written compactly ----------------------------------------------------


def dmg(
    attack: int | None,
    mods: tuple[str, ...] = (),
    shield: int = 0,
    ward: bool = False,
    brittle: bool = False,
    negate: bool = False,
    hp: int | None = None,
) -> dict[str, Any]:
    """The damage request the reader should produce (without 'game')."""
    out: dict[str, Any] = {} if attack is None else {"attack": attack}
    out.update(
        {
            "modifiers": list(mods),
            "shield": shield,
            "ward": ward,
            "brittle": brittle,
            "negate": negate,
        }
    )
    if hp is not None:
        out["hp"] = hp
    return out


def adv(mode: str, *cards: tuple[str, ...], attack: int | None = None) -> dict[str, Any]:
    """('+1', 'stun') -> {'value': '+1', 'effects': ['stun']}."""
    out: dict[str, Any] = {
        "mode": mode,
        "cards": [{"value": c[0], "effects": list(c[1:])} for c in cards],
    }
    if attack is not None:
        out["attack"] = attack
    return out


def figure(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    """An expected entry of 'figures' (fields given as None are left out)."""
    return {"name": name, "type": kind, **{k: v for k, v in fields.items() if v is not None}}


def ch(name: str, initiative: int, second: int | None = None) -> dict[str, Any]:
    return figure(name, "character", initiative=initiative, second=second)


def mo(name: str, initiative: int) -> dict[str, Any]:
    return figure(name, "monster", initiative=initiative)


def su(name: str, summoner: str) -> dict[str, Any]:
    return figure(name, "summon", summoner=summoner)


def ini(*figures: dict[str, Any]) -> dict[str, Any]:
    return {"figures": list(figures)}


def exh(
    hand: int, discard: int, hp: int | None = None, active: int | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {} if hp is None else {"hp": hp}
    out.update({"hand": hand, "discard": discard})
    if active is not None:
        out["active_bonuses"] = active
    return out


AMB = "ambiguous"


def read(lang: str, game: str | None, question: str) -> Reading:
    reading = read_question(question, lang, game)
    assert reading is not None, f"no reading for {question!r}"
    return reading


# (lang, game given, question, game read, expected input, expected result)
DAMAGE = [
    (
        "en",
        None,
        "Shield 1 and Ward, a monster attacks me for 7, how much damage do I take?",
        FH,
        dmg(7, shield=1, ward=True),
        3,
    ),
    (
        "en",
        FH,
        "Attack 3, I drew +1 rolling and then x2. What's the max damage?",
        FH,
        dmg(3, ("+1 rolling", "x2")),
        8,
    ),
    (
        "en",
        FH,
        "monster attacks for 5, I have shield 2 and I'm brittle. damage?",
        FH,
        dmg(5, shield=2, brittle=True),
        6,
    ),
    (
        "en",
        FH,
        "An Algox Guard hits me for 4 and draws a null. How much do I take?",
        FH,
        dmg(4, ("null",)),
        0,
    ),
    (
        "en",
        FH,
        "attack 6 with a -1, my shield is 1 and I only have 2 hp left, how much damage do I suffer?",
        FH,
        dmg(6, ("-1",), shield=1, hp=2),
        2,
    ),
    (
        "en",
        None,
        "If I lose a card to negate an attack of 5 while I have Ward, how much damage do I take?",
        FH,
        dmg(5, ward=True, negate=True),
        0,
    ),
    ("en", FH, "attak 4 +2 vs sheild 1, how much dmg?", FH, dmg(4, ("+2",), shield=1), 5),
    (
        "en",
        FH,
        "I attack for 6 and draw +1, the target has shield 2. how much damage does it take?",
        FH,
        dmg(6, ("+1",), shield=2),
        5,
    ),
    (
        "en",
        None,
        "Gloomhaven: attack 4, I drew x2, Shield 3. Damage?",
        GH,
        dmg(4, ("x2",), shield=3),
        5,
    ),
    (
        "en",
        FH,
        "without ward, shield 1, attack three, drew -2. how much?",
        FH,
        dmg(3, ("-2",), shield=1),
        0,
    ),
    (
        "de",
        None,
        "Frosthaven: Schild 1, Angriff 5, ich ziehe -1. Wie viel Schaden?",
        FH,
        dmg(5, ("-1",), shield=1),
        3,
    ),
    (
        "de",
        FH,
        "Ein Monster greift mich mit 6 an, ich habe Schild 2 und Ward. Wie viel Schaden nehme ich?",
        FH,
        dmg(6, shield=2, ward=True),
        2,
    ),
    (
        "de",
        FH,
        "Angriff 4, gezogen: +1 rollend und x2, wie viel Schaden insgesamt?",
        FH,
        dmg(4, ("+1 rolling", "x2")),
        10,
    ),
    (
        "de",
        FH,
        "Angriff drei gegen Brittle, Modifikator +0. Schaden?",
        FH,
        dmg(3, ("+0",), brittle=True),
        6,
    ),
    (
        "de",
        FH,
        "Ich habe noch 3 Trefferpunkte, Angriff 5 mit +1. Wie viel Schaden erleide ich?",
        FH,
        dmg(5, ("+1",), hp=3),
        3,
    ),
    (
        "de",
        FH,
        "Angriff 6, das Monster zieht die Null. Wie viel Schaden bekomme ich?",
        FH,
        dmg(6, ("null",)),
        0,
    ),
    (
        "de",
        FH,
        "Angrif 5 mit doppelt und -1, Schild 1, wie viel schaden nehm ich?",
        FH,
        dmg(5, ("x2", "-1"), shield=1),
        8,
    ),
    (
        "it",
        None,
        "attacco 3, pesco +1 con lancio e poi x2: quanto fa al massimo?",
        None,
        dmg(3, ("+1 rolling", "x2")),
        8,
    ),
    (
        "it",
        FH,
        "Un mostro mi attacca con 5, ho scudo 1 e protezione. Quanti danni subisco?",
        FH,
        dmg(5, shield=1, ward=True),
        2,
    ),
    (
        "it",
        FH,
        "attacco 4 e ho pescato -1, scudo 2: quanto danno prendo?",
        FH,
        dmg(4, ("-1",), shield=2),
        1,
    ),
    (
        "it",
        FH,
        "attacco 2, modificatore doppio, sono Brittle: quanti danni?",
        FH,
        dmg(2, ("x2",), brittle=True),
        8,
    ),
    ("it", FH, "Mi attacca per 7, ho 3 PF rimasti. Quanto danno subisco?", FH, dmg(7, hp=3), 3),
    ("it", FH, "attacco 5 ma pesco il nullo, quanti danni?", FH, dmg(5, ("null",)), 0),
    (
        "es",
        FH,
        "Escudo 1, ataque 5, robo -1. ¿Cuánto daño recibo?",
        FH,
        dmg(5, ("-1",), shield=1),
        3,
    ),
    (
        "es",
        FH,
        "Un monstruo me ataca con 4 y tengo Ward, ¿cuánto daño sufro?",
        FH,
        dmg(4, ward=True),
        2,
    ),
    (
        "es",
        FH,
        "ataque 3 con +1 encadenado y luego x2, ¿cuánto daño hace como máximo?",
        FH,
        dmg(3, ("+1 rolling", "x2")),
        8,
    ),
    (
        "es",
        FH,
        "Me atacan con 6, tengo escudo 2 y solo me quedan 2 puntos de vida. ¿Cuánto daño sufro?",
        FH,
        dmg(6, shield=2, hp=2),
        2,
    ),
    ("es", FH, "ataque 5, sale un nulo. ¿daño?", FH, dmg(5, ("null",)), 0),
    (
        "es",
        FH,
        "ataque 2, doble, y soy Brittle, ¿cuánto daño recibo?",
        FH,
        dmg(2, ("x2",), brittle=True),
        8,
    ),
    (
        "fr",
        None,
        "Bouclier 1 et Ward, un monstre m'attaque pour 7 : combien de dégâts je subis ?",
        FH,
        dmg(7, shield=1, ward=True),
        3,
    ),
    ("fr", FH, "Attaque 5, je pioche +2 puis -1. Combien de dégâts ?", FH, dmg(5, ("+2", "-1")), 6),
    (
        "fr",
        FH,
        "attaque 3 avec un +1 en chaîne et un x2 : combien au maximum ?",
        FH,
        dmg(3, ("+1 rolling", "x2")),
        8,
    ),
    (
        "fr",
        FH,
        "L'attaque fait 4, j'ai Bouclier 2 et Brittle. Dégâts subis ?",
        FH,
        dmg(4, shield=2, brittle=True),
        4,
    ),
    ("fr", FH, "Attaque 6 contre moi, il me reste 3 PV, combien je subis ?", FH, dmg(6, hp=3), 3),
    ("fr", FH, "attaque 4, le monstre pioche nul, combien de dégâts ?", FH, dmg(4, ("null",)), 0),
    (
        "nl",
        None,
        "Schild 1 en Ward, een monster valt me aan met 7. Hoeveel schade krijg ik?",
        FH,
        dmg(7, shield=1, ward=True),
        3,
    ),
    (
        "nl",
        FH,
        "aanval 3, ik trek +1 rollend en daarna x2, hoeveel schade maximaal?",
        FH,
        dmg(3, ("+1 rolling", "x2")),
        8,
    ),
    (
        "nl",
        FH,
        "Aanval 5 met een -1 tegen Schild 2, hoeveel schade?",
        FH,
        dmg(5, ("-1",), shield=2),
        2,
    ),
    (
        "nl",
        FH,
        "aanval vier tegen Brittle, hoeveel schade loop ik op?",
        FH,
        dmg(4, brittle=True),
        8,
    ),
    ("nl", FH, "Aanval 6, ik heb nog 2 HP. Hoeveel schade?", FH, dmg(6, hp=2), 2),
    ("nl", FH, "aanval 3 en de null getrokken, hoeveel schade?", FH, dmg(3, ("null",)), 0),
    (
        "da",
        None,
        "Shield 1 og Ward, et monster angriber mig for 7. Hvor meget skade tager jeg?",
        FH,
        dmg(7, shield=1, ward=True),
        3,
    ),
    ("da", FH, "angreb 4, jeg trækker +1 og x2, hvor meget skade?", FH, dmg(4, ("+1", "x2")), 10),
    (
        "da",
        FH,
        "Angreb 5 mod Skjold 2, modifier -1. Hvor meget skade får jeg?",
        FH,
        dmg(5, ("-1",), shield=2),
        2,
    ),
    (
        "da",
        FH,
        "angreb 3 med rolling +2 og Brittle, hvor meget skade?",
        FH,
        dmg(3, ("+2 rolling",), brittle=True),
        10,
    ),
    (
        "da",
        FH,
        "Angreb 6, jeg har kun 2 hit points tilbage, hvor meget skade tager jeg?",
        FH,
        dmg(6, hp=2),
        2,
    ),
    ("da", FH, "angreb 5, trak null, hvor meget skade?", FH, dmg(5, ("null",)), 0),
]

ADVANTAGE = [
    (
        "en",
        FH,
        "Advantage: I drew +1 and +0 Stun, which one do I use?",
        adv("advantage", ("+1",), ("+0", "stun")),
        AMB,
    ),
    (
        "en",
        FH,
        "with advantage I drew +1 Stun and +1, which card counts?",
        adv("advantage", ("+1", "stun"), ("+1",)),
        0,
    ),
    (
        "en",
        FH,
        "Disadvantage, cards drawn: +0 and -1. Which one?",
        adv("disadvantage", ("+0",), ("-1",)),
        1,
    ),
    ("en", FH, "advantage, +2 vs +1 Muddle?", adv("advantage", ("+2",), ("+1", "muddle")), AMB),
    (
        "en",
        FH,
        "I have disadvantage and draw x2 and +1, attack 3. which is used?",
        adv("disadvantage", ("x2",), ("+1",), attack=3),
        1,
    ),
    (
        "en",
        FH,
        "advantage +1 Poison vs +0 Wound, what do I use?",
        adv("advantage", ("+1", "poison"), ("+0", "wound")),
        AMB,
    ),
    ("en", FH, "disadvatage: null and -2, which card?", adv("disadvantage", ("null",), ("-2",)), 0),
    (
        "en",
        FH,
        "Advantage: +1 Stun or +0 Stun?",
        adv("advantage", ("+1", "stun"), ("+0", "stun")),
        0,
    ),
    (
        "de",
        FH,
        "Vorteil: ich ziehe +1 und +0 Betäubung. Welche Karte gilt?",
        adv("advantage", ("+1",), ("+0", "stun")),
        AMB,
    ),
    (
        "de",
        FH,
        "Mit Nachteil habe ich +0 und -1 gezogen, welche nehme ich?",
        adv("disadvantage", ("+0",), ("-1",)),
        1,
    ),
    (
        "de",
        FH,
        "Vorteil, +2 gegen +1 Verwirrung?",
        adv("advantage", ("+2",), ("+1", "muddle")),
        AMB,
    ),
    (
        "de",
        FH,
        "Nachteil: x2 oder +1 bei Angriff 2?",
        adv("disadvantage", ("x2",), ("+1",), attack=2),
        1,
    ),
    (
        "de",
        FH,
        "Vorteil mit +1 Gift und +1, welche Karte?",
        adv("advantage", ("+1", "poison"), ("+1",)),
        0,
    ),
    (
        "de",
        FH,
        "Ich habe Vorteil und ziehe +0 Betäubung und +1 Betäubung, welche benutze ich?",
        adv("advantage", ("+0", "stun"), ("+1", "stun")),
        1,
    ),
    (
        "it",
        FH,
        "Vantaggio: pesco +1 e +0 stordimento, quale uso?",
        adv("advantage", ("+1",), ("+0", "stun")),
        AMB,
    ),
    (
        "it",
        FH,
        "svantaggio con +0 e -1: quale carta conta?",
        adv("disadvantage", ("+0",), ("-1",)),
        1,
    ),
    ("it", FH, "vantaggio, +2 contro +1 veleno?", adv("advantage", ("+2",), ("+1", "poison")), AMB),
    (
        "it",
        FH,
        "Ho lo svantaggio e pesco x2 e +1 con attacco 4, quale si usa?",
        adv("disadvantage", ("x2",), ("+1",), attack=4),
        1,
    ),
    (
        "it",
        FH,
        "vantaggio: +1 ferita e +1, quale uso?",
        adv("advantage", ("+1", "wound"), ("+1",)),
        0,
    ),
    (
        "it",
        FH,
        "vantaggio con +0 stordimento e +1 stordimento: quale vale?",
        adv("advantage", ("+0", "stun"), ("+1", "stun")),
        1,
    ),
    (
        "es",
        FH,
        "Ventaja: robo +1 y +0 aturdir, ¿cuál uso?",
        adv("advantage", ("+1",), ("+0", "stun")),
        AMB,
    ),
    (
        "es",
        FH,
        "Con desventaja saqué +0 y -1, ¿cuál cuenta?",
        adv("disadvantage", ("+0",), ("-1",)),
        1,
    ),
    ("es", FH, "ventaja, +2 contra +1 veneno?", adv("advantage", ("+2",), ("+1", "poison")), AMB),
    (
        "es",
        FH,
        "desventaja: x2 o +1 con ataque 3, ¿cuál se usa?",
        adv("disadvantage", ("x2",), ("+1",), attack=3),
        1,
    ),
    ("es", FH, "ventaja con +1 herida y +1, ¿cuál?", adv("advantage", ("+1", "wound"), ("+1",)), 0),
    (
        "es",
        FH,
        "ventaja: +0 aturdir o +1 aturdir?",
        adv("advantage", ("+0", "stun"), ("+1", "stun")),
        1,
    ),
    (
        "fr",
        FH,
        "Avantage : je pioche +1 et +0 Étourdissement, laquelle j'utilise ?",
        adv("advantage", ("+1",), ("+0", "stun")),
        AMB,
    ),
    (
        "fr",
        FH,
        "Désavantage avec +0 et -1, quelle carte compte ?",
        adv("disadvantage", ("+0",), ("-1",)),
        1,
    ),
    ("fr", FH, "avantage, +2 contre +1 poison ?", adv("advantage", ("+2",), ("+1", "poison")), AMB),
    (
        "fr",
        FH,
        "désavantage : x2 ou +1 avec une attaque 3 ?",
        adv("disadvantage", ("x2",), ("+1",), attack=3),
        1,
    ),
    (
        "fr",
        FH,
        "avantage : +1 Blessure et +1, laquelle ?",
        adv("advantage", ("+1", "wound"), ("+1",)),
        0,
    ),
    (
        "fr",
        FH,
        "avantage : +0 Étourdissement ou +1 Étourdissement ?",
        adv("advantage", ("+0", "stun"), ("+1", "stun")),
        1,
    ),
    (
        "nl",
        FH,
        "Voordeel: ik trek +1 en +0 Stun, welke gebruik ik?",
        adv("advantage", ("+1",), ("+0", "stun")),
        AMB,
    ),
    ("nl", FH, "Nadeel met +0 en -1, welke kaart telt?", adv("disadvantage", ("+0",), ("-1",)), 1),
    ("nl", FH, "voordeel, +2 tegen +1 gif?", adv("advantage", ("+2",), ("+1", "poison")), AMB),
    (
        "nl",
        FH,
        "nadeel: x2 of +1 bij aanval 3?",
        adv("disadvantage", ("x2",), ("+1",), attack=3),
        1,
    ),
    ("nl", FH, "voordeel: +1 Wond en +1, welke?", adv("advantage", ("+1", "wound"), ("+1",)), 0),
    (
        "nl",
        FH,
        "voordeel: +0 Stun of +1 Stun?",
        adv("advantage", ("+0", "stun"), ("+1", "stun")),
        1,
    ),
    (
        "da",
        FH,
        "Fordel: jeg trækker +1 og +0 Stun, hvilket kort bruger jeg?",
        adv("advantage", ("+1",), ("+0", "stun")),
        AMB,
    ),
    (
        "da",
        FH,
        "Ulempe med +0 og -1, hvilket kort tæller?",
        adv("disadvantage", ("+0",), ("-1",)),
        1,
    ),
    ("da", FH, "fordel, +2 mod +1 gift?", adv("advantage", ("+2",), ("+1", "poison")), AMB),
    (
        "da",
        FH,
        "ulempe: x2 eller +1 med angreb 3?",
        adv("disadvantage", ("x2",), ("+1",), attack=3),
        1,
    ),
    ("da", FH, "fordel: +1 Wound og +1, hvilket?", adv("advantage", ("+1", "wound"), ("+1",)), 0),
    (
        "da",
        FH,
        "fordel: +0 Stun eller +1 Stun?",
        adv("advantage", ("+0", "stun"), ("+1", "stun")),
        1,
    ),
]

# (lang, game given, question, game read, expected input, expected order, expected ties)
INITIATIVE = [
    (
        "en",
        None,
        "Gloomhaven: Spellweaver initiative 10, Cragheart 45, the Vermling Scouts 30. Order?",
        GH,
        ini(ch("Spellweaver", 10), ch("Cragheart", 45), mo("Vermling Scouts", 30)),
        ["Spellweaver", "Vermling Scouts", "Cragheart"],
        [],
    ),
    (
        "en",
        FH,
        "Drifter 20 (second card 45), Banner Spear 20 with second 30, Algox Archers 20. Who goes first?",
        FH,
        ini(ch("Drifter", 20, 45), ch("Banner Spear", 20, 30), mo("Algox Archers", 20)),
        ["Banner Spear", "Drifter", "Algox Archers"],
        [],
    ),
    (
        "en",
        None,
        "initiative order: Blinkblade 12, Boneshaper 70, Bandit Guards 40?",
        FH,
        ini(ch("Blinkblade", 12), ch("Boneshaper", 70), mo("Bandit Guards", 40)),
        ["Blinkblade", "Bandit Guards", "Boneshaper"],
        [],
    ),
    (
        "en",
        FH,
        "Geminate 35 and the Frozen Corpses 35, who acts first?",
        FH,
        ini(ch("Geminate", 35), mo("Frozen Corpses", 35)),
        ["Geminate", "Frozen Corpses"],
        [],
    ),
    (
        "en",
        FH,
        "Banner Spear 50, Banner Spear's Banner, Deathwalker 15. turn order?",
        FH,
        ini(ch("Banner Spear", 50), su("Banner", "Banner Spear"), ch("Deathwalker", 15)),
        ["Deathwalker", "Banner", "Banner Spear"],
        [],
    ),
    (
        "en",
        FH,
        "I'm the Drifter at 20, Algox Guards 60. when does my summon act in the initiative order?",
        FH,
        ini(ch("Drifter", 20), mo("Algox Guards", 60), su("summon (Drifter)", "Drifter")),
        ["summon (Drifter)", "Drifter", "Algox Guards"],
        [],
    ),
    (
        "en",
        None,
        "Brute 22, Tinkerer 22, both with no second card given. order?",
        GH,
        ini(ch("Brute", 22), ch("Tinkerer", 22)),
        ["Brute", "Tinkerer"],
        [["Brute", "Tinkerer"]],
    ),
    (
        "en",
        FH,
        "Blinkblade 10/40 and Drifter 10/25, what's the order?",
        FH,
        ini(ch("Blinkblade", 10, 40), ch("Drifter", 10, 25)),
        ["Drifter", "Blinkblade"],
        [],
    ),
    (
        "de",
        FH,
        "Initiative: Drifter 20, Algox-Bogenschützen 15, Geminate 50. Wer ist zuerst dran?",
        FH,
        ini(ch("Drifter", 20), mo("Algox-Bogenschützen", 15), ch("Geminate", 50)),
        ["Algox-Bogenschützen", "Drifter", "Geminate"],
        [],
    ),
    (
        "de",
        FH,
        "Reihenfolge? Blinkblade 12, Banner Spear 12 mit zweiter Karte 40 und Blinkblade zweite Karte 30",
        FH,
        ini(ch("Blinkblade", 12, 30), ch("Banner Spear", 12, 40)),
        ["Blinkblade", "Banner Spear"],
        [],
    ),
    (
        "de",
        FH,
        "Deathwalker Initiative 33, die Banditenwachen 33, wer handelt zuerst?",
        FH,
        ini(ch("Deathwalker", 33), mo("Banditenwachen", 33)),
        ["Deathwalker", "Banditenwachen"],
        [],
    ),
    (
        "de",
        GH,
        "Brute 45, Spellweaver 10, Lebende Knochen 30: Reihenfolge?",
        GH,
        ini(ch("Brute", 45), ch("Spellweaver", 10), mo("Lebende Knochen", 30)),
        ["Spellweaver", "Lebende Knochen", "Brute"],
        [],
    ),
    (
        "de",
        FH,
        "Boneshaper 20 und Drifter 60, die Beschwörung vom Boneshaper, wer ist zuerst dran?",
        FH,
        ini(ch("Boneshaper", 20), ch("Drifter", 60), su("Beschwörung (Boneshaper)", "Boneshaper")),
        ["Beschwörung (Boneshaper)", "Boneshaper", "Drifter"],
        [],
    ),
    (
        "de",
        FH,
        "In welcher Reihenfolge: Drifter 40, Geminate 40?",
        FH,
        ini(ch("Drifter", 40), ch("Geminate", 40)),
        ["Drifter", "Geminate"],
        [["Drifter", "Geminate"]],
    ),
    (
        "it",
        FH,
        "Iniziativa: Drifter 20, Arcieri Algox 15, Geminate 50. Chi agisce prima?",
        FH,
        ini(ch("Drifter", 20), mo("Arcieri Algox", 15), ch("Geminate", 50)),
        ["Arcieri Algox", "Drifter", "Geminate"],
        [],
    ),
    (
        "it",
        FH,
        "Blinkblade 12 (seconda carta 40) e Banner Spear 12 (seconda 30): in che ordine?",
        FH,
        ini(ch("Blinkblade", 12, 40), ch("Banner Spear", 12, 30)),
        ["Banner Spear", "Blinkblade"],
        [],
    ),
    (
        "it",
        GH,
        "ordine di iniziativa: Brute 45, Spellweaver 10, Guardie Bandite 30?",
        GH,
        ini(ch("Brute", 45), ch("Spellweaver", 10), mo("Guardie Bandite", 30)),
        ["Spellweaver", "Guardie Bandite", "Brute"],
        [],
    ),
    (
        "it",
        FH,
        "Deathwalker 33 e i mostri 33, chi va prima?",
        FH,
        ini(ch("Deathwalker", 33), mo("mostri", 33)),
        ["Deathwalker", "mostri"],
        [],
    ),
    (
        "it",
        FH,
        "Boneshaper 20, evocazione del Boneshaper, Drifter 60: ordine?",
        FH,
        ini(ch("Boneshaper", 20), su("evocazione (Boneshaper)", "Boneshaper"), ch("Drifter", 60)),
        ["evocazione (Boneshaper)", "Boneshaper", "Drifter"],
        [],
    ),
    (
        "it",
        FH,
        "Geminate iniziativa 70, Drifter iniziativa 8: chi gioca prima?",
        FH,
        ini(ch("Geminate", 70), ch("Drifter", 8)),
        ["Drifter", "Geminate"],
        [],
    ),
    (
        "es",
        FH,
        "Iniciativa: Drifter 20, Arqueros Algox 15, Geminate 50. ¿Quién va primero?",
        FH,
        ini(ch("Drifter", 20), mo("Arqueros Algox", 15), ch("Geminate", 50)),
        ["Arqueros Algox", "Drifter", "Geminate"],
        [],
    ),
    (
        "es",
        FH,
        "orden: Blinkblade 12, Banner Spear 45, Boneshaper 3",
        FH,
        ini(ch("Blinkblade", 12), ch("Banner Spear", 45), ch("Boneshaper", 3)),
        ["Boneshaper", "Blinkblade", "Banner Spear"],
        [],
    ),
    (
        "es",
        GH,
        "Cragheart 30, Mindthief 30, los Guardias Bandidos 30, ¿en qué orden?",
        GH,
        ini(ch("Cragheart", 30), ch("Mindthief", 30), mo("Guardias Bandidos", 30)),
        ["Cragheart", "Mindthief", "Guardias Bandidos"],
        [["Cragheart", "Mindthief"]],
    ),
    (
        "es",
        FH,
        "Deathwalker 33 y los monstruos 33, ¿quién actúa primero?",
        FH,
        ini(ch("Deathwalker", 33), mo("monstruos", 33)),
        ["Deathwalker", "monstruos"],
        [],
    ),
    (
        "es",
        FH,
        "Boneshaper 20, la invocación del Boneshaper, Drifter 60: ¿orden?",
        FH,
        ini(ch("Boneshaper", 20), su("invocación (Boneshaper)", "Boneshaper"), ch("Drifter", 60)),
        ["invocación (Boneshaper)", "Boneshaper", "Drifter"],
        [],
    ),
    (
        "es",
        FH,
        "Geminate iniciativa 70 y Drifter iniciativa 8, quien va primero?",
        FH,
        ini(ch("Geminate", 70), ch("Drifter", 8)),
        ["Drifter", "Geminate"],
        [],
    ),
    (
        "fr",
        FH,
        "Initiative : Drifter 20, Archers Algox 15, Geminate 50. Qui joue en premier ?",
        FH,
        ini(ch("Drifter", 20), mo("Archers Algox", 15), ch("Geminate", 50)),
        ["Archers Algox", "Drifter", "Geminate"],
        [],
    ),
    (
        "fr",
        FH,
        "ordre : Blinkblade 12, Banner Spear 45, Boneshaper 3 ?",
        FH,
        ini(ch("Blinkblade", 12), ch("Banner Spear", 45), ch("Boneshaper", 3)),
        ["Boneshaper", "Blinkblade", "Banner Spear"],
        [],
    ),
    (
        "fr",
        GH,
        "Cragheart 30, Mindthief 30 et les Gardes Bandits 30, dans quel ordre ?",
        GH,
        ini(ch("Cragheart", 30), ch("Mindthief", 30), mo("Gardes Bandits", 30)),
        ["Cragheart", "Mindthief", "Gardes Bandits"],
        [["Cragheart", "Mindthief"]],
    ),
    (
        "fr",
        FH,
        "Deathwalker 33 et les monstres 33, qui agit en premier ?",
        FH,
        ini(ch("Deathwalker", 33), mo("monstres", 33)),
        ["Deathwalker", "monstres"],
        [],
    ),
    (
        "fr",
        FH,
        "Boneshaper 20, l'invocation du Boneshaper, Drifter 60 : ordre ?",
        FH,
        ini(ch("Boneshaper", 20), su("invocation (Boneshaper)", "Boneshaper"), ch("Drifter", 60)),
        ["invocation (Boneshaper)", "Boneshaper", "Drifter"],
        [],
    ),
    (
        "fr",
        FH,
        "Geminate initiative 70, Drifter initiative 8, qui commence ?",
        FH,
        ini(ch("Geminate", 70), ch("Drifter", 8)),
        ["Drifter", "Geminate"],
        [],
    ),
    (
        "nl",
        FH,
        "Initiatief: Drifter 20, Algox Boogschutters 15, Geminate 50. Wie is eerst?",
        FH,
        ini(ch("Drifter", 20), mo("Algox Boogschutters", 15), ch("Geminate", 50)),
        ["Algox Boogschutters", "Drifter", "Geminate"],
        [],
    ),
    (
        "nl",
        FH,
        "volgorde: Blinkblade 12, Banner Spear 45, Boneshaper 3?",
        FH,
        ini(ch("Blinkblade", 12), ch("Banner Spear", 45), ch("Boneshaper", 3)),
        ["Boneshaper", "Blinkblade", "Banner Spear"],
        [],
    ),
    (
        "nl",
        GH,
        "Cragheart 30, Mindthief 30 en de Bandit Guards 30, in welke volgorde?",
        GH,
        ini(ch("Cragheart", 30), ch("Mindthief", 30), mo("Bandit Guards", 30)),
        ["Cragheart", "Mindthief", "Bandit Guards"],
        [["Cragheart", "Mindthief"]],
    ),
    (
        "nl",
        FH,
        "Deathwalker 33 en de monsters 33, wie begint?",
        FH,
        ini(ch("Deathwalker", 33), mo("monsters", 33)),
        ["Deathwalker", "monsters"],
        [],
    ),
    (
        "nl",
        FH,
        "Boneshaper 20, de summon van de Boneshaper, Drifter 60: volgorde?",
        FH,
        ini(ch("Boneshaper", 20), su("summon (Boneshaper)", "Boneshaper"), ch("Drifter", 60)),
        ["summon (Boneshaper)", "Boneshaper", "Drifter"],
        [],
    ),
    (
        "nl",
        FH,
        "Geminate initiatief 70, Drifter initiatief 8, wie is eerst aan de beurt?",
        FH,
        ini(ch("Geminate", 70), ch("Drifter", 8)),
        ["Drifter", "Geminate"],
        [],
    ),
    (
        "da",
        FH,
        "Initiativ: Drifter 20, Algox Archers 15, Geminate 50. Hvem starter?",
        FH,
        ini(ch("Drifter", 20), mo("Algox Archers", 15), ch("Geminate", 50)),
        ["Algox Archers", "Drifter", "Geminate"],
        [],
    ),
    (
        "da",
        FH,
        "rækkefølge: Blinkblade 12, Banner Spear 45, Boneshaper 3?",
        FH,
        ini(ch("Blinkblade", 12), ch("Banner Spear", 45), ch("Boneshaper", 3)),
        ["Boneshaper", "Blinkblade", "Banner Spear"],
        [],
    ),
    (
        "da",
        GH,
        "Cragheart 30, Mindthief 30 og Bandit Guards 30, i hvilken rækkefølge?",
        GH,
        ini(ch("Cragheart", 30), ch("Mindthief", 30), mo("Bandit Guards", 30)),
        ["Cragheart", "Mindthief", "Bandit Guards"],
        [["Cragheart", "Mindthief"]],
    ),
    (
        "da",
        FH,
        "Deathwalker 33 og monstrene 33, hvem er først?",
        FH,
        ini(ch("Deathwalker", 33), mo("monstrene", 33)),
        ["Deathwalker", "monstrene"],
        [],
    ),
    (
        "da",
        FH,
        "Boneshaper 20, Boneshaper's summon, Drifter 60: rækkefølge?",
        FH,
        ini(ch("Boneshaper", 20), su("summon (Boneshaper)", "Boneshaper"), ch("Drifter", 60)),
        ["summon (Boneshaper)", "Boneshaper", "Drifter"],
        [],
    ),
    (
        "da",
        FH,
        "Geminate initiativ 70, Drifter initiativ 8, hvem går først?",
        FH,
        ini(ch("Geminate", 70), ch("Drifter", 8)),
        ["Drifter", "Geminate"],
        [],
    ),
]

# (lang, game given, question, game read, expected input, expected 'exhausted')
EXHAUSTION = [
    ("en", FH, "1 card in hand and 1 in the discard, am I exhausted?", FH, exh(1, 1), True),
    ("en", FH, "I have 3 cards in hand and 0 in my discard pile. Exhausted?", FH, exh(3, 0), False),
    ("en", FH, "hand: 1, discard: 4, am i exhausted", FH, exh(1, 4), False),
    (
        "en",
        FH,
        "no cards in hand, 1 discarded card and one active bonus, am I exhausted?",
        FH,
        exh(0, 1, active=1),
        False,
    ),
    ("en", FH, "2 hp, 1 card in hand, 1 in discard, exhausted?", FH, exh(1, 1, hp=2), True),
    (
        "en",
        FH,
        "my hand is empty and I have 2 cards in the discard, can I long rest?",
        FH,
        exh(0, 2),
        False,
    ),
    (
        "en",
        None,
        "I'm at 0 hp with 5 cards in hand and 3 in the discard, am I exhausted?",
        None,
        exh(5, 3, hp=0),
        True,
    ),
    (
        "de",
        FH,
        "Ich habe 1 Karte auf der Hand und 1 im Ablagestapel, bin ich erschöpft?",
        FH,
        exh(1, 1),
        True,
    ),
    (
        "de",
        FH,
        "Keine Karten auf der Hand, 2 Karten im Ablagestapel. Erschöpft?",
        FH,
        exh(0, 2),
        False,
    ),
    ("de", FH, "Hand: 3, Ablage: 0, bin ich erschöpft?", FH, exh(3, 0), False),
    (
        "de",
        FH,
        "1 Karte auf der Hand, eine abgelegte Karte und ein aktiver Bonus: kann ich eine lange Rast machen?",
        FH,
        exh(1, 1, active=1),
        False,
    ),
    (
        "de",
        FH,
        "Ich habe 4 Trefferpunkte, zwei Karten auf der Hand und keine im Ablagestapel – erschöpft?",
        FH,
        exh(2, 0, hp=4),
        False,
    ),
    ("de", FH, "0 Karten auf der Hand und 1 abgelegt, bin ich erschöpft?", FH, exh(0, 1), True),
    (
        "de",
        FH,
        "Bei 0 Trefferpunkten mit 3 Karten auf der Hand und 2 im Ablagestapel – bin ich erschöpft?",
        FH,
        exh(3, 2, hp=0),
        True,
    ),
    ("it", FH, "ho 1 carta in mano e 1 negli scarti, sono esausto?", FH, exh(1, 1), True),
    (
        "it",
        FH,
        "Nessuna carta in mano e 2 nella pila degli scarti: sono esausta?",
        FH,
        exh(0, 2),
        False,
    ),
    ("it", FH, "mano: 3, scarti: 0, esausto?", FH, exh(3, 0), False),
    (
        "it",
        FH,
        "1 carta in mano, 1 scartata e un bonus attivo: posso fare un riposo lungo?",
        FH,
        exh(1, 1, active=1),
        False,
    ),
    (
        "it",
        FH,
        "ho 2 PF, due carte in mano e nessuna negli scarti, sono esausto?",
        FH,
        exh(2, 0, hp=2),
        False,
    ),
    ("it", FH, "0 carte in mano e 1 negli scarti, esausto?", FH, exh(0, 1), True),
    (
        "it",
        GH,
        "ho 3 PF, 1 carta in mano e 1 negli scarti: sono esausto?",
        GH,
        exh(1, 1, hp=3),
        True,
    ),
    (
        "es",
        FH,
        "Tengo 1 carta en la mano y 1 en la pila de descartes, ¿estoy agotado?",
        FH,
        exh(1, 1),
        True,
    ),
    ("es", FH, "Ninguna carta en la mano y 2 en descartes. ¿Agotado?", FH, exh(0, 2), False),
    ("es", FH, "mano: 3, descartes: 0, ¿agotado?", FH, exh(3, 0), False),
    (
        "es",
        FH,
        "1 carta en la mano, 1 descartada y una bonificación activa: ¿puedo hacer un descanso largo?",
        FH,
        exh(1, 1, active=1),
        False,
    ),
    (
        "es",
        FH,
        "tengo 5 puntos de vida, dos cartas en la mano y ninguna en descartes, ¿estoy agotado?",
        FH,
        exh(2, 0, hp=5),
        False,
    ),
    ("es", FH, "0 cartas en mano y 1 descartada, agotado?", FH, exh(0, 1), True),
    (
        "es",
        GH,
        "me queda 1 punto de vida, 0 cartas en la mano y 3 descartadas, ¿agotado?",
        GH,
        exh(0, 3, hp=1),
        False,
    ),
    ("fr", FH, "J'ai 1 carte en main et 1 dans la défausse, suis-je épuisé ?", FH, exh(1, 1), True),
    ("fr", FH, "Aucune carte en main et 2 dans la défausse : épuisé ?", FH, exh(0, 2), False),
    ("fr", FH, "main : 3, défausse : 0, épuisé ?", FH, exh(3, 0), False),
    (
        "fr",
        FH,
        "1 carte en main, 1 défaussée et un bonus actif : puis-je faire un repos long ?",
        FH,
        exh(1, 1, active=1),
        False,
    ),
    (
        "fr",
        FH,
        "J'ai 4 PV, deux cartes en main et aucune en défausse, suis-je épuisé ?",
        FH,
        exh(2, 0, hp=4),
        False,
    ),
    ("fr", FH, "0 carte en main et 1 en défausse, épuisé ?", FH, exh(0, 1), True),
    (
        "fr",
        GH,
        "il me reste 2 PV, 1 carte en main et 1 en défausse, suis-je épuisé ?",
        GH,
        exh(1, 1, hp=2),
        True,
    ),
    (
        "nl",
        FH,
        "Ik heb 1 kaart in mijn hand en 1 op de aflegstapel, ben ik uitgeput?",
        FH,
        exh(1, 1),
        True,
    ),
    ("nl", FH, "Geen kaarten in hand en 2 op de aflegstapel. Uitgeput?", FH, exh(0, 2), False),
    ("nl", FH, "hand: 3, aflegstapel: 0, uitgeput?", FH, exh(3, 0), False),
    (
        "nl",
        FH,
        "1 kaart op hand, 1 afgelegd en een actieve bonus: kan ik een lange rust nemen?",
        FH,
        exh(1, 1, active=1),
        False,
    ),
    (
        "nl",
        FH,
        "Ik heb 4 HP, twee kaarten in mijn hand en geen op de aflegstapel, uitgeput?",
        FH,
        exh(2, 0, hp=4),
        False,
    ),
    ("nl", FH, "0 kaarten in hand en 1 afgelegd, ben ik uitgeput?", FH, exh(0, 1), True),
    (
        "nl",
        GH,
        "3 HP, 1 kaart in hand en 1 op de aflegstapel: ben ik uitgeput?",
        GH,
        exh(1, 1, hp=3),
        True,
    ),
    (
        "da",
        None,
        "jeg har 0 kort på hånden og 1 i discard, er jeg udmattet?",
        None,
        exh(0, 1),
        True,
    ),
    ("da", FH, "Jeg har 1 kort på hånden og 1 i discard, er jeg udmattet?", FH, exh(1, 1), True),
    ("da", FH, "ingen kort på hånden og 2 i discard, udmattet?", FH, exh(0, 2), False),
    ("da", FH, "hånd: 3, discard: 0, udmattet?", FH, exh(3, 0), False),
    (
        "da",
        FH,
        "1 kort på hånden, 1 i discard og en aktiv bonus: kan jeg tage long rest?",
        FH,
        exh(1, 1, active=1),
        False,
    ),
    (
        "da",
        FH,
        "Jeg har 4 hp, to kort på hånden og ingen i discard, er jeg udmattet?",
        FH,
        exh(2, 0, hp=4),
        False,
    ),
    (
        "da",
        GH,
        "2 hp, 1 kort på hånden og 0 i discard: er jeg udmattet?",
        GH,
        exh(1, 0, hp=2),
        True,
    ),
]

# Questions that ask for no computation: no numbers, or no mechanical question.
NOT_COMPUTED = [
    ("en", "what does Brittle do exactly?"),
    ("en", "is Jump decided before the move?"),
    ("en", "can I do two top actions?"),
    ("en", "when does my summon act?"),
    ("en", "item 225"),
    ("en", "Frosthaven rulebook page 18"),
    ("en", "Is Shield 1 applied before Ward?"),
    ("en", "Does Pierce 2 ignore Ward?"),
    ("en", "How many modifier cards do I draw for an attack with 3 targets?"),
    ("en", "What happens to my 2 summons when I become exhausted?"),
    ("en", "Do I get advantage if I attack an adjacent enemy with a ranged attack?"),
    ("en", "Scenario 5: can monsters open doors?"),
    ("en", "How does Retaliate 2 interact with Shield?"),
    ("en", "Does the Algox Archer at initiative 20 focus on me?"),
    ("en", "what is the initiative of a summon?"),
    ("en", "Is poison +1 damage on every attack?"),
    ("en", "can a summon attack in round 1?"),
    ("en", "Level 3 Drifter: how many cards in hand?"),
    ("en", "how many HP does a level 4 Bandit Guard have?"),
    ("de", "Was macht Brittle genau?"),
    ("de", "Wird Sprung vor der Bewegung entschieden?"),
    ("de", "Darf ich zwei obere Aktionen machen?"),
    ("de", "Wann handelt meine Beschwörung?"),
    ("de", "Gegenstand 225"),
    ("de", "Frosthaven Regelbuch Seite 18"),
    ("de", "Wirkt Schild 1 vor Ward?"),
    ("it", "Cosa fa esattamente Brittle?"),
    ("it", "Il salto si decide prima del movimento?"),
    ("it", "Posso fare due azioni superiori?"),
    ("it", "Quando agisce la mia evocazione?"),
    ("it", "oggetto 225"),
    ("it", "regolamento di Frosthaven pagina 18"),
    ("it", "Lo scudo 1 si applica prima della protezione?"),
    ("es", "¿Qué hace exactamente Brittle?"),
    ("es", "¿El salto se decide antes del movimiento?"),
    ("es", "¿Puedo hacer dos acciones superiores?"),
    ("es", "¿Cuándo actúa mi invocación?"),
    ("es", "objeto 225"),
    ("es", "reglamento de Frosthaven página 18"),
    ("es", "¿El escudo 1 se aplica antes que Ward?"),
    ("fr", "Que fait exactement Brittle ?"),
    ("fr", "Le saut est-il décidé avant le déplacement ?"),
    ("fr", "Puis-je faire deux actions du haut ?"),
    ("fr", "Quand mon invocation agit-elle ?"),
    ("fr", "objet 225"),
    ("fr", "livret de règles de Frosthaven page 18"),
    ("fr", "Le Bouclier 1 s'applique-t-il avant Ward ?"),
    ("nl", "Wat doet Brittle precies?"),
    ("nl", "Wordt Jump vóór de beweging bepaald?"),
    ("nl", "Mag ik twee bovenste acties doen?"),
    ("nl", "Wanneer handelt mijn summon?"),
    ("nl", "item 225"),
    ("nl", "Frosthaven regelboek pagina 18"),
    ("nl", "Geldt Schild 1 vóór Ward?"),
    ("da", "Hvad gør Brittle helt præcist?"),
    ("da", "Afgøres Jump før bevægelsen?"),
    ("da", "Må jeg lave to topaktioner?"),
    ("da", "Hvornår handler min summon?"),
    ("da", "item 225"),
    ("da", "Frosthaven regelbog side 18"),
    ("da", "Gælder Shield 1 før Ward?"),
]

# (lang, question, check, missing, a note that must be there or None)
MISSING = [
    ("en", "Shield 2 against an attack, how much do I take?", "damage", ["attack"], None),
    ("de", "Schild 1, wie viel Schaden nehme ich?", "damage", ["attack"], None),
    ("it", "scudo 2 e protezione, quanto danno subisco?", "damage", ["attack"], None),
    (
        "en",
        "Attack 400 with Shield 1, how much damage?",
        "damage",
        ["attack"],
        "Attack 400 is over the maximum",
    ),
    ("en", "attack 5 against Shield, how much damage do I take?", "damage", ["shield"], None),
    ("en", "I'm poisoned: attack 3, how much damage do I take?", "damage", ["attack"], "Poison"),
    (
        "en",
        "attack 4 with pierce 2 against my shield 3, how much damage?",
        "damage",
        ["shield"],
        "Pierce",
    ),
    (
        "es",
        "Me ataca con 5 y tengo pocos puntos de vida, ¿cuánto daño recibo?",
        "damage",
        ["hp"],
        None,
    ),
    ("en", "advantage: I drew +1, which do I use?", "advantage", ["cards"], "1 card(s) read"),
    (
        "en",
        "Drifter 20, Geminate, the Algox Guards 45: order?",
        "initiative",
        ["figures[1].initiative"],
        None,
    ),
    (
        "en",
        "Drifter 20, Blinkblade 30, the summon acts when? order",
        "initiative",
        ["figures[2].summoner"],
        None,
    ),
    (
        "it",
        "Blinkblade 12 e Banner Spear 12, seconda carta 40 e 30: in che ordine?",
        "initiative",
        ["figures[1].second"],
        "more numbers",
    ),
    ("en", "2 cards in hand, am I exhausted?", "exhaustion", ["discard"], None),
    ("fr", "J'ai 3 cartes dans la défausse, suis-je épuisé ?", "exhaustion", ["hand"], None),
    (
        "en",
        "I have 3 hp and take 4 damage, 2 cards in hand and 1 in discard: exhausted?",
        "exhaustion",
        ["hp"],
        "hit points after the damage",
    ),
]


# Written after the reader was done and measured on it before any fix (31 of 35 right; the
# four misses were fixed and stay here): (lang, game, question, (check, result) / missing / None)
HELD_BACK = [
    (
        "en",
        FH,
        "The Lurker Soldier attacks me for 5; it draws a +1. I've got Shield 2. How much do I take?",
        ("damage", 4),
    ),
    (
        "en",
        FH,
        "Brittle and shield 1 vs an attack of 3 with a rolling +1 and a -1, damage?",
        ("damage", 4),
    ),
    (
        "en",
        None,
        "How much damage do I take from attack 5 if I have Ward and lose a card?",
        ("damage", 0),
    ),
    ("en", FH, "Quick one: atk 8, I pulled a x2 and I have 3 hp left. dmg?", ("damage", 3)),
    ("en", GH, "what's the damage of attack 2 with a +2 against shield 1?", ("damage", 3)),
    (
        "de",
        FH,
        "Monster hat Angriff 4, ich habe Schild 1 und bin Brittle, gezogen wurde +0. Wie viel Schaden?",
        ("damage", 6),
    ),
    ("it", FH, "mi attaccano per 6, ho scudo 3: quanti danni mi fanno?", ("damage", 3)),
    (
        "es",
        FH,
        "Si me atacan con 3 y sale un x2, con Escudo 1, ¿cuánto daño recibo?",
        ("damage", 5),
    ),
    (
        "fr",
        FH,
        "Un monstre attaque 5 contre mon Bouclier 2 et Ward, combien je prends ?",
        ("damage", 1),
    ),
    (
        "nl",
        FH,
        "aanval 7 tegen mijn schild 2, ik trek een -1: hoeveel schade krijg ik?",
        ("damage", 4),
    ),
    (
        "da",
        FH,
        "et monster angriber med 4 og trækker x2, jeg har Shield 1 og Ward, hvor meget skade får jeg?",
        ("damage", 3),
    ),
    (
        "en",
        FH,
        "Rolled advantage: the two cards are +2 and +2 Immobilize. Which one applies?",
        ("advantage", 1),
    ),
    ("de", FH, "Mit Vorteil: -1 und Null, welche zählt?", ("advantage", 0)),
    ("it", FH, "svantaggio: +1 spinta 1 e +0, quale si usa?", ("advantage", 1)),
    ("es", FH, "ventaja: +1 fuego o +1 hielo?", ("advantage", AMB)),
    ("fr", FH, "désavantage : +2 et +1 Étourdissement, laquelle compte ?", ("advantage", AMB)),
    ("da", FH, "fordel med x2 og +2 ved angreb 1, hvilket kort?", ("advantage", 1)),
    (
        "en",
        FH,
        "Round order please: Deathwalker 45, Geminate 12, Lurker Soldiers 30",
        ("initiative", ["Geminate", "Lurker Soldiers", "Deathwalker"]),
    ),
    (
        "en",
        GH,
        "Mindthief and Scoundrel both on 25; Mindthief's second card is 60 and Scoundrel's 40. Who goes first?",
        ("initiative", ["Scoundrel", "Mindthief"]),
    ),
    (
        "de",
        FH,
        "Reihenfolge: Blinkblade 5, Algox-Späher 5, Drifter 99?",
        ("initiative", ["Blinkblade", "Algox-Späher", "Drifter"]),
    ),
    # two characters and "il suo stendardo": whose summon is not guessed
    (
        "it",
        FH,
        "ordine? Banner Spear 30, il suo stendardo evocato questo round, Drifter 50",
        ["figures[1].summoner"],
    ),
    (
        "es",
        FH,
        "¿Quién va primero? Geminate con 40 y los Vermling Scouts con 40",
        ("initiative", ["Geminate", "Vermling Scouts"]),
    ),
    (
        "fr",
        GH,
        "ordre d'initiative : Tinkerer 9, Brute 9 (deuxième carte 20), Tinkerer deuxième carte 70",
        ("initiative", ["Brute", "Tinkerer"]),
    ),
    (
        "nl",
        FH,
        "volgorde? Drifter initiatief 15 en de Lurker Mindsnippers 14",
        ("initiative", ["Lurker Mindsnippers", "Drifter"]),
    ),
    (
        "en",
        FH,
        "4 hp, no cards in hand and just one in my discard. exhausted?",
        ("exhaustion", True),
    ),
    (
        "de",
        FH,
        "Ich habe 2 Trefferpunkte, eine Karte auf der Hand und 3 im Ablagestapel, bin ich erschöpft?",
        ("exhaustion", False),
    ),
    (
        "fr",
        FH,
        "5 PV, 0 carte en main, 0 en défausse et 2 bonus actifs, suis-je épuisé ?",
        ("exhaustion", False),
    ),
    (
        "es",
        GH,
        "¿estoy agotado con 3 puntos de vida, 1 carta en la mano y 1 en descartes?",
        ("exhaustion", True),
    ),
    ("en", FH, "Can Ward and Brittle be on the same figure?", None),
    ("it", FH, "Cosa succede se pesco il nullo con vantaggio?", None),
    ("de", FH, "Zählt die Initiative meiner Beschwörung?", None),
    ("de", FH, "Was passiert, wenn ich mit Vorteil eine Null ziehe?", None),
    ("fr", FH, "Combien de cartes pioche-t-on avec l'avantage ?", None),
    ("nl", FH, "Hoeveel HP heeft een Algox Guard op niveau 2?", None),
    ("da", FH, "Hvad sker der med Ward ved 0 skade?", None),
    ("es", FH, "¿Puedo descansar con 2 cartas en la mano?", ["discard"]),
]


def _ids(cases: list[tuple[Any, ...]]) -> list[str]:
    return [f"{c[0]}-{c[2][:40]}" for c in cases]


# --- each check in each language -------------------------------------------------------------


@pytest.mark.parametrize(
    "lang, game, question, game_read, expected, damage", DAMAGE, ids=_ids(DAMAGE)
)
def test_damage(
    lang: str,
    game: str | None,
    question: str,
    game_read: str | None,
    expected: dict[str, Any],
    damage: int,
) -> None:
    reading = read(lang, game, question)
    assert (reading.check, reading.missing) == ("damage", [])
    assert reading.input == {"game": game_read, **expected}
    result = computed(with_game(reading, FH))
    assert result["result"]["damage"] == damage


@pytest.mark.parametrize(
    "lang, game, question, expected, chosen",
    ADVANTAGE,
    ids=[f"{c[0]}-{c[2][:40]}" for c in ADVANTAGE],
)
def test_advantage(
    lang: str, game: str, question: str, expected: dict[str, Any], chosen: Any
) -> None:
    reading = read(lang, game, question)
    assert (reading.check, reading.missing) == ("advantage", [])
    assert reading.input == {"game": game, **expected}
    assert computed(reading)["result"]["chosen"] == chosen


@pytest.mark.parametrize(
    "lang, game, question, game_read, expected, order, ties", INITIATIVE, ids=_ids(INITIATIVE)
)
def test_initiative(
    lang: str,
    game: str | None,
    question: str,
    game_read: str,
    expected: dict[str, Any],
    order: list[str],
    ties: list[list[str]],
) -> None:
    reading = read(lang, game, question)
    assert (reading.check, reading.missing) == ("initiative", [])
    assert reading.input == {"game": game_read, **expected}
    result = computed(reading)["result"]
    assert (result["order"], result["ties"]) == (order, ties)


@pytest.mark.parametrize(
    "lang, game, question, game_read, expected, exhausted", EXHAUSTION, ids=_ids(EXHAUSTION)
)
def test_exhaustion_reading(
    lang: str,
    game: str | None,
    question: str,
    game_read: str | None,
    expected: dict[str, Any],
    exhausted: bool,
) -> None:
    reading = read(lang, game, question)
    assert (reading.check, reading.missing) == ("exhaustion", [])  # hp is never missing
    assert reading.input == {"game": game_read, **expected}


WITH_HP = [c for c in EXHAUSTION if "hp" in c[4]]
WITHOUT_HP = [c for c in EXHAUSTION if "hp" not in c[4]]


@pytest.mark.parametrize(
    "lang, game, question, game_read, expected, exhausted", WITH_HP, ids=_ids(WITH_HP)
)
def test_exhaustion_result(
    lang: str,
    game: str | None,
    question: str,
    game_read: str | None,
    expected: dict[str, Any],
    exhausted: bool,
) -> None:
    result = computed(with_game(read(lang, game, question), FH))
    assert result["result"]["exhausted"] is exhausted


@pytest.mark.parametrize(
    "lang, game, question, game_read, expected, exhausted", WITHOUT_HP, ids=_ids(WITHOUT_HP)
)
def test_exhaustion_result_without_hp(
    lang: str,
    game: str | None,
    question: str,
    game_read: str | None,
    expected: dict[str, Any],
    exhausted: bool,
) -> None:
    result = computed(with_game(read(lang, game, question), FH))
    assert result["result"] is not None and result["result"]["exhausted"] is exhausted


def test_exhaustion_without_hp_is_answered_from_the_cards() -> None:
    # the check takes the figure as standing when the question gives no hit points
    result = computed(read("da", FH, "jeg har 0 kort på hånden og 1 i discard, er jeg udmattet?"))
    assert result["missing"] == [] and result["result"]["exhausted"] is True
    assert result["result"]["steps"][0]["action"].startswith("hit points not given")


def test_every_check_has_six_questions_in_every_language() -> None:
    tables = {
        "damage": DAMAGE,
        "advantage": ADVANTAGE,
        "initiative": INITIATIVE,
        "exhaustion": EXHAUSTION,
    }
    for check, table in tables.items():
        for lang in LANGS:
            assert sum(1 for c in table if c[0] == lang) >= 6, (check, lang)
    assert sum(map(len, tables.values())) >= 170


# --- questions that ask for no computation, and missing values -------------------------------


@pytest.mark.parametrize("lang, question", NOT_COMPUTED, ids=[q for _, q in NOT_COMPUTED])
def test_no_computation(lang: str, question: str) -> None:
    assert read_question(question, lang, FH) is None
    assert read_question(question, lang, None) is None


def test_no_computation_in_every_language() -> None:
    assert len(NOT_COMPUTED) >= 40
    assert {lang for lang, _ in NOT_COMPUTED} == set(LANGS)


@pytest.mark.parametrize("text", ["", "   ", "?", "12", "+1", "x2"])
def test_bare_numbers_ask_nothing(text: str) -> None:
    assert read_question(text, "en", FH) is None


@pytest.mark.parametrize(
    "lang, question, check, missing, note", MISSING, ids=[q[:40] for _, q, *_ in MISSING]
)
def test_missing(
    lang: str, question: str, check: str, missing: list[str], note: str | None
) -> None:
    reading = read(lang, FH, question)
    assert (reading.check, reading.missing) == (check, missing)
    result = computed(reading)
    assert result["result"] is None and result["missing"] == missing
    if note is not None:
        assert any(note in n for n in result["notes"]), result["notes"]


def test_missing_attack_is_not_guessed_but_the_rest_is_kept_for_the_calculator() -> None:
    reading = read("en", None, "Shield 2 against an attack, how much do I take?")
    assert "attack" not in reading.input and reading.input["shield"] == 2
    assert (
        computed(reading)["summary"] == "Not computed: the question does not give the attack value."
    )


def test_out_of_range_summary_and_note() -> None:
    result = computed(read("en", FH, "Attack 400 with Shield 1, how much damage?"))
    assert result["notes"] == ["Attack 400 is over the maximum (99)"]
    assert result["summary"] == "Not computed: the attack value is out of range (see the notes)."


@pytest.mark.parametrize(
    "lang, game, question, expected", HELD_BACK, ids=[f"{c[0]}-{c[2][:40]}" for c in HELD_BACK]
)
def test_held_back_questions(lang: str, game: str | None, question: str, expected: Any) -> None:
    reading = read_question(question, lang, game)
    if expected is None:
        assert reading is None
        return
    assert reading is not None
    result = computed(with_game(reading, FH))
    if isinstance(expected, list):
        assert result["missing"] == expected and result["result"] is None
    else:
        check, value = expected
        assert (result["check"], result["missing"]) == (check, [])
        assert result["result"][RESULT_KEY[check]] == value


# --- the game --------------------------------------------------------------------------------


def test_no_game_named_leaves_it_to_the_caller() -> None:
    reading = read("it", None, "attacco 3, pesco +1 con lancio e poi x2: quanto fa al massimo?")
    assert reading.input["game"] is None
    unfilled = computed(reading)
    assert unfilled["result"] is None
    assert unfilled["summary"] == "Non calcolato finché il gioco non è noto."
    filled = with_game(reading, GH)
    assert filled.input["game"] == GH and computed(filled)["result"]["damage"] == 8


def test_with_game_keeps_a_game_the_question_named() -> None:
    reading = read("de", None, "Frosthaven: Schild 1, Angriff 5, ich ziehe -1. Wie viel Schaden?")
    assert with_game(reading, GH).input["game"] == FH


def test_ward_and_brittle_name_frosthaven_and_classes_name_their_game() -> None:
    assert read("en", None, "attack 4 against Brittle, damage?").input["game"] == FH
    assert read("en", None, "Cragheart 30, Brute 20, order?").input["game"] == GH
    assert read("en", None, "Drifter 30, Bandit Guards 20, order?").input["game"] == FH
    both = read("en", None, "Frosthaven or Gloomhaven? attack 4, shield 1, damage?")
    assert both.input["game"] is None and "the question names both games" in map(str, both.notes)


def test_the_request_game_wins_over_the_question() -> None:
    reading = read("en", GH, "Frosthaven: attack 4 and shield 1, how much damage?")
    assert reading.input["game"] == GH


def test_a_game_without_a_checker_reads_nothing() -> None:
    assert read_question("attack 4 and shield 1, how much damage?", "en", "catan") is None


def test_ward_in_gloomhaven_is_refused_by_the_check_not_raised() -> None:
    result = computed(read("en", GH, "attack 4 with Ward, how much damage do I take?"))
    assert result["result"] is None
    assert any("does not exist in Gloomhaven" in n for n in result["notes"])
    assert result["summary"].startswith("Not computed")


# --- the contract ----------------------------------------------------------------------------


def test_computed_contract_matches_the_check_endpoint() -> None:
    reading = read(
        "en", None, "Shield 1 and Ward, a monster attacks me for 7, how much damage do I take?"
    )
    result = computed(reading)
    assert set(result) == {"check", "input", "result", "summary", "missing", "notes"}
    assert result["result"] == run_check("damage", result["input"])
    assert result["summary"] == "You suffer 3 damage." and result["missing"] == []
    assert computed(reading) == result  # the same reading computes the same answer
    steps = result["result"]["steps"]
    assert any("fh-clar-10" in s["rulings"] for s in steps)


def test_reading_is_frozen() -> None:
    reading = read("en", FH, "attack 4 and shield 1, how much damage?")
    with pytest.raises(dataclasses.FrozenInstanceError):
        reading.check = "advantage"  # type: ignore[misc]


@pytest.mark.parametrize(
    "lang, question, summary",
    [
        (
            "en",
            "attack 6 with a -1, my shield is 1 and I only have 2 hp left, how much damage?",
            "You would suffer 4 damage, capped at your 2 hit points: you suffer 2.",
        ),
        (
            "en",
            "I attack for 6 and draw +1, the target has shield 2. how much damage does it take?",
            "The target suffers 5 damage.",
        ),
        (
            "en",
            "If I lose a card to negate an attack of 5, how much damage do I take?",
            "You lose a card and suffer no damage.",
        ),
        (
            "de",
            "Frosthaven: Schild 1, Angriff 5, ich ziehe -1. Wie viel Schaden?",
            "Du erleidest 3 Schaden.",
        ),
        ("it", "attacco 4 e ho pescato -1, scudo 2: quanto danno prendo?", "Subisci 1 danno."),
        ("fr", "attaque 4, le monstre pioche nul, combien de dégâts ?", "Vous subissez 0 dégât."),
        ("en", "with advantage I drew +1 Stun and +1, which card counts?", "You use +1 Stun."),
        ("fr", "avantage : +1 Blessure et +1, laquelle ?", "Vous utilisez +1 Blessure."),
        (
            "en",
            "Advantage: I drew +1 and +0 Stun, which one do I use?",
            "The draw is ambiguous: the archive does not say which card is used.",
        ),
        (
            "en",
            "Gloomhaven: Spellweaver initiative 10, Cragheart 45, the Vermling Scouts 30. Order?",
            "Order: Spellweaver, Vermling Scouts, Cragheart.",
        ),
        (
            "es",
            "Cragheart 30, Mindthief 30, los Guardias Bandidos 30, ¿en qué orden?",
            "Orden: Cragheart, Mindthief, Guardias Bandidos (Cragheart y Mindthief empatados: deciden los jugadores).",
        ),
        (
            "nl",
            "3 HP, 1 kaart in hand en 1 op de aflegstapel: ben ik uitgeput?",
            "Je bent uitgeput.",
        ),
        (
            "da",
            "Jeg har 4 hp, to kort på hånden og ingen i discard, er jeg udmattet?",
            "Du er ikke udmattet.",
        ),
        (
            "en",
            "4 hp, 1 card in hand and 2 in the discard: can I long rest?",
            "You are not exhausted and can long rest.",
        ),
    ],
)
def test_summary_in_the_askers_language(lang: str, question: str, summary: str) -> None:
    assert computed(with_game(read(lang, None, question), FH))["summary"] == summary


# --- vocabulary and tokenizer ----------------------------------------------------------------


def test_every_language_has_every_summary_sentence_and_field_label() -> None:
    english = lexicon("en")
    for lang in LANGS:
        lex = lexicon(lang)
        assert (VOCAB_DIR / f"{lang}.yaml").is_file()
        missing = {k for k in english.summary if not k.endswith("_one")} - set(lex.summary)
        assert not missing, (lang, missing)
        assert set(english.fields) <= set(lex.fields), lang


@pytest.mark.parametrize(
    "lang, word",
    [
        ("en", "three"),
        ("de", "drei"),
        ("it", "tre"),
        ("fr", "trois"),
        ("es", "tres"),
        ("nl", "drie"),
        ("da", "tre"),
    ],
)
def test_number_words_count(lang: str, word: str) -> None:
    assert [t.number for t in tokenize(word, lexicon(lang))] == [3]


def test_tokenizer_modifiers_and_compound_numbers() -> None:
    tokens = tokenize("Attack 3, +1 and −2 then 2x and x2; 3-1 forty-five", lexicon("en"))
    assert [t.modifier for t in tokens if t.modifier] == ["+1", "-2", "x2", "x2"]
    assert [t.number for t in tokens if t.number is not None] == [3, 3, 1, 45]


def test_folding_and_phrases() -> None:
    assert fold("Hånden Désavantage Schäden") == "handen desavantage schaden"
    found = scan("Frosthaven: +1 con lancio", lexicon("it"))
    assert [t.concept for t in found.terms] == ["game.frosthaven", "rolling"]


def test_the_askers_number_word_wins_over_an_english_term() -> None:
    # Danish "fire" is four, not the fire element
    tokens = scan("fire kort på hånden", lexicon("da"))
    assert tokens.tokens[0].number == 4 and tokens.concept(0) is None


RECORDS = REPO / "rulings" / "records"


def _archive_words() -> dict[str, set[str]]:
    words: dict[str, set[str]] = {lang: set() for lang in LANGS}
    for path in sorted(RECORDS.glob("*.yaml")):
        record = yaml.safe_load(path.read_text(encoding="utf-8"))
        texts = {
            record["lang"]: record["text"],
            **{k: v["text"] for k, v in (record.get("translations") or {}).items()},
        }
        for lang, text in texts.items():
            if lang in words:
                words[lang] |= {fold(w) for w in re.findall(r"[^\W\d_]+", text)}
    return words


def test_no_word_of_the_archive_is_taken_for_a_misspelt_term() -> None:
    # the typo allowance must not turn real words into terms ("quando" is not "quanto")
    for lang, words in _archive_words().items():
        lex = lexicon(lang)
        misread = sorted(
            w
            for w in words
            if lex.match_at([w], 0) is None and w not in lex.numbers and lex.fuzzy(w) is not None
        )
        assert not misread, (lang, misread)


@pytest.mark.parametrize(
    "lang, typo, concept",
    [
        ("en", "sheild", "shield"),
        ("en", "initative", "initiative"),
        ("en", "exausted", "exhausted"),
        ("en", "disadvatage", "disadvantage"),
        ("de", "angrif", "attack"),
        ("it", "svantagio", "disadvantage"),
    ],
)
def test_typos_of_game_terms_are_forgiven(lang: str, typo: str, concept: str) -> None:
    assert [t.concept for t in scan(typo, lexicon(lang)).terms] == [concept]


def test_unknown_language_reads_english() -> None:
    assert read("xx", FH, "attack 4 and shield 1, how much damage?").lang == "en"


# --- never an exception ----------------------------------------------------------------------

_WORDS = [
    "attack",
    "Angriff",
    "scudo",
    "Shield",
    "Ward",
    "Brittle",
    "+1",
    "-1",
    "x2",
    "null",
    "rolling",
    "advantage",
    "Vorteil",
    "Drifter",
    "initiative",
    "'s",
    "summon",
    "hand",
    "discard",
    "exhausted",
    "hp",
    "0",
    "3",
    "99",
    "400",
    "?",
    ",",
    "and",
    "og",
    "e",
    "item",
    "page",
    "Algox",
    "Archers",
    "second",
    "no",
    "keine",
    "-",
    "/",
    "empty",
]


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.sampled_from(_WORDS) | st.text(max_size=6), max_size=14),
    lang=st.sampled_from(LANGS),
    game=st.sampled_from([None, FH, GH]),
)
def test_reading_never_raises(words: list[str], lang: str, game: str | None) -> None:
    reading = read_question(" ".join(words), lang, game)
    if reading is not None:
        result = computed(with_game(reading, FH))
        assert set(result) >= {"check", "input", "result", "summary", "missing", "notes"}
        assert isinstance(result["summary"], str) and result["summary"]
        if result["missing"]:
            assert result["result"] is None


# --- quoted cards --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lang, question, expected",
    [
        # a comma inside a quoted card does not split it from its effects
        (
            "de",
            "Nachteil: ich ziehe '+2, Heile 1 selbst' und '+1, Heile 1 selbst'. Welche nehme ich?",
            adv("disadvantage", ("+2", "heal 1"), ("+1", "heal 1")),
        ),
        # a bare value after the two quoted cards refers back to one of them
        (
            "en",
            "advantage: I flipped '+0 muddle' and '+1 muddle'. is that ambiguous or do I just take the +1?",
            adv("advantage", ("+0", "muddle"), ("+1", "muddle")),
        ),
        (
            "fr",
            "Avantage : j'ai tiré «+1 Immobiliser» et «+0», l'autre. Je prends le +1 ?",
            adv("advantage", ("+1", "immobilize"), ("+0",)),
        ),
        # conditions written as verbs
        (
            "es",
            "Ventaja: '+0 Aturdir' contra '+0 Envenenar'. ¿Cuál uso?",
            adv("advantage", ("+0", "stun"), ("+0", "poison")),
        ),
        (
            "it",
            "Svantaggio: '+1 avvelenare' e '+1 ferire', quale uso?",
            adv("disadvantage", ("+1", "poison"), ("+1", "wound")),
        ),
    ],
)
def test_quoted_cards_and_verb_forms(lang: str, question: str, expected: dict[str, Any]) -> None:
    reading = read(lang, FH, question)
    assert (reading.check, reading.missing) == ("advantage", [])
    assert {k: v for k, v in reading.input.items() if k != "game"} == expected


def test_apostrophes_of_elision_are_not_quotes() -> None:
    tokens = tokenize("j'ai tiré '+1' et l'autre", lexicon("fr"))
    assert [t.quote for t in tokens if t.text == "'"] == [None, "open", "close", None]


def test_three_quoted_cards_stay_missing() -> None:
    reading = read(
        "de",
        FH,
        "Vorteil: '+1' gegen '+0, und +2, wenn du dafür etwas bezahlst'. Wie vergleiche ich die beiden?",
    )
    assert reading.missing == ["cards"]  # three values read: nothing is guessed


def test_without_the_archive_beside_it_the_reader_knows_the_games_by_id(monkeypatch, tmp_path):
    import importlib

    # The package's `lexicon` attribute is the function of that name: the module by its path.
    lexicon_module = importlib.import_module("checker.reader.lexicon")
    monkeypatch.setattr(lexicon_module, "DEFAULT_ARCHIVE", tmp_path / "nowhere")
    lexicon_module.game_names.cache_clear()
    lexicon_module.lexicon.cache_clear()
    try:
        assert lexicon_module.game_names() == {
            "game.frosthaven": ["frosthaven"],
            "game.gloomhaven": ["gloomhaven"],
        }
        assert (
            read("en", None, "Gloomhaven: attack 4 against Shield 1, damage?").input["game"] == GH
        )
    finally:
        lexicon_module.game_names.cache_clear()
        lexicon_module.lexicon.cache_clear()
