"""Questions in each language that use the editions' words (conditions as printed, hit points
as players write them), read and computed; and questions naming them that ask for no
computation."""

from __future__ import annotations

from typing import Any

import pytest

from checker.reader import computed, read_question, with_game
from checker.reader.lexicon import LANGS
from tests.checker.test_reader import AMB, FH, GH, RESULT_KEY, adv, dmg, exh, read

# --- questions in each language, read and computed -------------------------------------------

# (lang, game given, question, check, expected input without "game", result)
QUESTIONS: list[tuple[str, str | None, str, str, dict[str, Any], Any]] = [
    (
        "en",
        FH,
        "the bandit guard has 5 hp left, i hit it for 4 and drew a +2. how much dmg?",
        "damage",
        dmg(4, ("+2",), hp=5),
        5,
    ),
    (
        "en",
        None,
        "I'm brittle with 5 hit points remaining and get attacked for 3, how much damage do I take?",
        "damage",
        dmg(3, brittle=True, hp=5),
        5,
    ),
    (
        "en",
        FH,
        "monster has 3 hps left and shield 1, i hit it for 5 with a rolling +1 and a +0. damage?",
        "damage",
        dmg(5, ("+1 rolling", "+0"), shield=1, hp=3),
        3,
    ),
    (
        "en",
        FH,
        "advantage: +0 immob vs +1 immob, which do i use",
        "advantage",
        adv("advantage", ("+0", "immobilize"), ("+1", "immobilize")),
        1,
    ),
    (
        "en",
        FH,
        "disadvantage, drew +1 regen and +1 invis. which one?",
        "advantage",
        adv("disadvantage", ("+1", "regenerate"), ("+1", "invisible")),
        AMB,
    ),
    (
        "en",
        GH,
        "at 2 health with 1 card in hand and 3 in the discard, am i exhausted?",
        "exhaustion",
        exh(1, 3, hp=2),
        False,
    ),
    (
        "de",
        FH,
        "ich hab noch 3 LP und werde mit 5 angegriffen, schild 1, wie viel schaden?",
        "damage",
        dmg(5, shield=1, hp=3),
        3,
    ),
    (
        "de",
        None,
        "bin brüchig und hab noch 4 lebenspunkte, angriff 3, wie viel schaden nehme ich",
        "damage",
        dmg(3, brittle=True, hp=4),
        4,
    ),
    (
        "de",
        GH,
        "werde mit 6 attackiert, habe schild 2 und noch 3 TP, wie viel schaden?",
        "damage",
        dmg(6, shield=2, hp=3),
        3,
    ),
    (
        "de",
        FH,
        "Nachteil: +0 gestärkt und +1 gestärkt, welche Karte?",
        "advantage",
        adv("disadvantage", ("+0", "strengthen"), ("+1", "strengthen")),
        0,
    ),
    (
        "de",
        FH,
        "Vorteil: +1 Vergiftung oder +1 Verwundung?",
        "advantage",
        adv("advantage", ("+1", "poison"), ("+1", "wound")),
        AMB,
    ),
    (
        "de",
        FH,
        "mit 2 TP, 1 karte auf der hand und 0 im ablagestapel, bin ich erschöpft?",
        "exhaustion",
        exh(1, 0, hp=2),
        True,
    ),
    (
        "fr",
        FH,
        "il lui reste 4 points de vie, j'attaque a 6 et je tire un +1, combien de degats ?",
        "damage",
        dmg(6, ("+1",), hp=4),
        4,
    ),
    (
        "fr",
        None,
        "attaque 5, il me reste 3 pts de vie et Ward, combien de dégâts je subis ?",
        "damage",
        dmg(5, ward=True, hp=3),
        2,
    ),
    (
        "fr",
        FH,
        "je suis fragile avec 5 PV restants, un monstre m'attaque pour 2, combien je prends ?",
        "damage",
        dmg(2, brittle=True, hp=5),
        4,
    ),
    (
        "fr",
        GH,
        "plus que 2 PdV, le gardien m'attaque a 4 avec un +1, bouclier 1, combien je prends",
        "damage",
        dmg(4, ("+1",), shield=1, hp=2),
        2,
    ),
    (
        "fr",
        FH,
        "desavantage : +0 renforce et +1 renforce, quelle carte ?",
        "advantage",
        adv("disadvantage", ("+0", "strengthen"), ("+1", "strengthen")),
        0,
    ),
    (
        "fr",
        FH,
        "a 2 PdV avec 1 carte en main et 0 dans la defausse, suis-je epuise ?",
        "exhaustion",
        exh(1, 0, hp=2),
        True,
    ),
    (
        "it",
        FH,
        "vantaggio: +1 rinforzato e +0 avvelenato, quale uso?",
        "advantage",
        adv("advantage", ("+1", "strengthen"), ("+0", "poison")),
        AMB,
    ),
    (
        "it",
        FH,
        "svantaggio: +0 rinforzata e +1 rinforzata, quale carta?",
        "advantage",
        adv("disadvantage", ("+0", "strengthen"), ("+1", "strengthen")),
        0,
    ),
    (
        "it",
        None,
        "sono fragile, mi attaccano per 3 e ho scudo 1, quanti danni subisco?",
        "damage",
        dmg(3, shield=1, brittle=True),
        4,
    ),
    (
        "it",
        FH,
        "ha ancora 4 punti vita, attacco 6 e pesco +1, quanti danni fa?",
        "damage",
        dmg(6, ("+1",), hp=4),
        4,
    ),
    ("it", FH, "Mi restano 3 PF e prendo 7 danni: quanti ne subisco?", "damage", dmg(7, hp=3), 3),
    (
        "it",
        GH,
        "con 2 ps, 1 carta in mano e 0 negli scarti, sono esausto?",
        "exhaustion",
        exh(1, 0, hp=2),
        True,
    ),
    (
        "es",
        None,
        "me quedan 3 de vida, me atacan con 5 y soy frágil, cuánto daño recibo?",
        "damage",
        dmg(5, brittle=True, hp=3),
        3,
    ),
    (
        "es",
        FH,
        "ataque 5 con 3 puntos de golpe restantes y Ward, cuanto daño recibo?",
        "damage",
        dmg(5, ward=True, hp=3),
        2,
    ),
    (
        "es",
        FH,
        "le quedan 4 puntos de vida, ataco con 6 y saco un +1, cuanto daño le hago?",
        "damage",
        dmg(6, ("+1",), hp=4),
        4,
    ),
    (
        "es",
        GH,
        "me quedan 2 pg y tengo escudo 1, el arquero me ataca con 4 y saca +1, cuánto daño recibo?",
        "damage",
        dmg(4, ("+1",), shield=1, hp=2),
        2,
    ),
    (
        "es",
        FH,
        "desventaja: +0 fortalecido y +1 fortalecido, que carta uso?",
        "advantage",
        adv("disadvantage", ("+0", "strengthen"), ("+1", "strengthen")),
        0,
    ),
    (
        "es",
        GH,
        "con 2 pg, 1 carta en la mano y 0 en descartes, estoy agotado?",
        "exhaustion",
        exh(1, 0, hp=2),
        True,
    ),
    (
        "nl",
        FH,
        "ik heb nog 2 hp en word met 4 aangevallen, hoeveel schade krijg ik?",
        "damage",
        dmg(4, hp=2),
        2,
    ),
    (
        "nl",
        FH,
        "hij heeft nog 4 levenspunten over, ik val aan met 6 en trek +1, hoeveel schade?",
        "damage",
        dmg(6, ("+1",), hp=4),
        4,
    ),
    (
        "nl",
        None,
        "ik ben broos en heb schild 1, aanval 3, hoeveel schade?",
        "damage",
        dmg(3, shield=1, brittle=True),
        4,
    ),
    (
        "nl",
        FH,
        "voordeel: +1 geimmobiliseerd en +1 regeneratie, welke?",
        "advantage",
        adv("advantage", ("+1", "immobilize"), ("+1", "regenerate")),
        AMB,
    ),
    (
        "nl",
        FH,
        "met 2 lp, 1 kaart op hand en 0 op de aflegstapel, ben ik uitgeput?",
        "exhaustion",
        exh(1, 0, hp=2),
        True,
    ),
    (
        "da",
        FH,
        "jeg har 3 liv tilbage, et monster angriber med 5 og jeg har skjold 1, hvor meget skade tager jeg?",
        "damage",
        dmg(5, shield=1, hp=3),
        3,
    ),
    (
        "da",
        None,
        "jeg er skrobelig med 6 livspoint, angreb 4, hvor meget skade?",
        "damage",
        dmg(4, brittle=True, hp=6),
        6,
    ),
    (
        "da",
        FH,
        "jeg har 3 hp og er skrøbelig, et monster angriber med 2 og trækker +1, hvor meget skade?",
        "damage",
        dmg(2, ("+1",), brittle=True, hp=3),
        3,
    ),
    (
        "da",
        FH,
        "fordel: +0 forbandet og +1 forbandet, hvilket kort?",
        "advantage",
        adv("advantage", ("+0", "curse"), ("+1", "curse")),
        1,
    ),
    (
        "da",
        FH,
        "ulempe: +1 velsignet og +1 forgiftet, hvilket bruger jeg?",
        "advantage",
        adv("disadvantage", ("+1", "bless"), ("+1", "poison")),
        AMB,
    ),
    (
        "da",
        GH,
        "har 4 liv tilbage, 0 kort på hånden og 2 i discard, er jeg udmattet?",
        "exhaustion",
        exh(0, 2, hp=4),
        False,
    ),
]


@pytest.mark.parametrize(
    "lang, game, question, check, expected, result",
    QUESTIONS,
    ids=[f"{c[0]}-{c[2][:40]}" for c in QUESTIONS],
)
def test_questions_with_the_editions_words(
    lang: str, game: str | None, question: str, check: str, expected: dict[str, Any], result: Any
) -> None:
    reading = read(lang, game, question)
    assert (reading.check, reading.missing) == (check, [])
    # Ward and Brittle name Frosthaven when the request names no game
    assert reading.input == {"game": game or FH, **expected}
    outcome = computed(with_game(reading, FH))["result"]
    assert outcome is not None and outcome[RESULT_KEY[check]] == result


def test_four_new_questions_in_every_language() -> None:
    for lang in LANGS:
        assert sum(1 for c in QUESTIONS if c[0] == lang) >= 4, lang


# --- naming a condition or the hit points asks for no computation ----------------------------

NOT_COMPUTED = [
    ("en", "what does regen do?"),
    ("en", "is immob removed at the end of my next turn?"),
    ("en", "Does a wound deal 1 damage when I have 2 hp?"),
    ("en", "If I have 1 hp and suffer 1 damage from wound, am I exhausted?"),
    ("de", "Wie lange hält Stärkung?"),
    ("de", "Was macht brüchig genau?"),
    ("de", "Wie viele LP hat ein Wächter auf Stufe 2?"),
    ("de", "Ich habe 4 LP, wie viel Schaden macht Gift?"),
    ("fr", "Que fait l'état renforcé ?"),
    ("fr", "Est-ce que fragile double les dégâts ?"),
    ("fr", "Combien de PV a un garde bandit niveau 3 ?"),
    ("it", "cosa fa rinforzato?"),
    ("it", "Il rinforzato dura fino alla fine del mio prossimo turno?"),
    ("it", "Quanti punti vita ha un arciere di livello 2?"),
    ("it", "quanti danni fa il veleno se ho 3 pv?"),
    # "quanti" alone counts ("how many"), it asks for no damage
    ("it", "Con attacco 3 quanti bersagli posso colpire?"),
    ("it", "attacco 3: quante carte modificatore pesco?"),
    ("es", "¿Qué hace frágil?"),
    ("es", "cuanto dura fortalecido?"),
    ("es", "¿Cuántos puntos de vida tiene un guardia bandido de nivel 2?"),
    ("nl", "Wat doet broos precies?"),
    ("nl", "hoe lang blijft geimmobiliseerd liggen?"),
    ("nl", "Hoeveel levenspunten heeft een Algox Guard op niveau 2?"),
    ("da", "Hvad gør skrøbelig?"),
    ("da", "hvor længe varer styrket?"),
    ("da", "Hvor mange liv har en bandit guard på niveau 2?"),
]


@pytest.mark.parametrize("lang, question", NOT_COMPUTED, ids=[q for _, q in NOT_COMPUTED])
def test_naming_the_words_asks_nothing(lang: str, question: str) -> None:
    assert read_question(question, lang, FH) is None
    assert read_question(question, lang, None) is None


def test_no_computation_in_every_language() -> None:
    assert {lang for lang, _ in NOT_COMPUTED} == set(LANGS)
