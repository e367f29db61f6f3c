"""TEST DATA, NOT RULINGS: rulebook-excerpt files in the importer's format, for tests/archive/test_growth.py.

Each paragraph restates, in our own words, a rule the archive already holds (the record named
in the comment beside it), with that record's page references in the language's style. They
stand in for a community's typed-up excerpts of an edition the project has never seen: they
are worded independently of the archive's own translations, in an order that is not the
archive's, and one German paragraph states only half of gh-da-2 (which holds two rules). They
are never copied into rulings/.
"""

from __future__ import annotations

# Gloomhaven, German: paragraph -> the record stating the same rule.
GERMAN_GLOOMHAVEN = [
    # gh-da-5
    (
        "Eine Beschwörung ist jede Runde direkt vor dem Charakter am Zug, der sie beschworen hat, "
        "aber nie in der Runde, in der sie ins Spiel kommt; Beschwörungen handeln automatisch nach "
        "den Regeln für Monster, ziehen aus dem Angriffsmodifikatorstapel ihres Beschwörers und "
        "nutzen die aufgedruckten Werte der Beschwörung (S. 26).",
        "gh-da-5",
    ),
    # gh-da-1
    (
        "Sinken die Lebenspunkte eines Charakters unter 1, ist er erschöpft; ebenso, wenn er zu "
        "Beginn einer Runde weder zwei Handkarten spielen noch rasten kann, weil er höchstens eine "
        "Karte auf der Hand und höchstens eine im Ablagestapel hat. Ein erschöpfter Charakter legt "
        "alle Fertigkeitskarten zu seinen verlorenen Karten und nimmt seine Figur vom Spielbrett "
        "(S. 28).",
        "gh-da-1",
    ),
    # gh-da-2, its first rule only (initiative ties)
    (
        "Für die Initiative zählt nur die Leitkarte. Haben zwei Spieler dieselbe Initiative, "
        "vergleichen sie ihre jeweils zweite Karte; herrscht dann noch Gleichstand, einigen sich die "
        "Spieler. Bei Gleichstand zwischen einem Spieler und einem Monster ist der Spieler zuerst an "
        "der Reihe (S. 18).",
        "gh-da-2",
    ),
    # gh-da-3
    (
        "Verbündete Figuren halten deine Bewegung nicht auf, Gegner und Hindernisse dagegen schon, "
        "und auf einem Feld, auf dem schon eine Figur steht, darfst du nicht stehen bleiben; betrittst "
        "du ein Feld mit einer Falle oder besonderem Gelände, wirkt es sofort (S. 19). Wer springt, "
        "lässt Figuren und Gelände unterwegs außer Acht, nur für das Zielfeld gelten die üblichen "
        "Regeln; eine fliegende Figur lässt sie auf dem ganzen Weg und auch auf dem Zielfeld außer "
        "Acht, darf aber nur auf einem unbesetzten Feld anhalten (S. 19).",
        "gh-da-3",
    ),
    # gh-da-4
    (
        "Zuerst bestimmt jedes Monster seinen Fokus: den Gegner, den es mit möglichst wenig Bewegung "
        "mit seinem aktuellen Angriff treffen kann, also über den kürzesten Weg in Reichweite und "
        "Sichtlinie. Kommen mehrere Gegner in Frage, zählt zuerst, wer näher steht, danach, wer in der "
        "Initiative früher dran ist; eine Beschwörung wird dabei vor ihrem Beschwörer gewählt. "
        "Anschließend legt das Monster nur die Strecke zurück, die es für den besten Angriff auf "
        "seinen Fokus braucht, und ohne Angriff geht es auf ihn zu (S. 29–30).",
        "gh-da-4",
    ),
]

# Frosthaven, Spanish: paragraph -> the Dutch record stating the same rule (fh-it-N is its edition).
SPANISH_FROSTHAVEN = [
    # fh-nl-6
    (
        "Si dos personajes empatan en iniciativa, se comparan los valores de iniciativa de la segunda "
        "carta que jugó cada uno; si el empate continúa, o en cualquier otro empate, el grupo decide "
        "el orden, y si un personaje empata con un grupo de monstruos, actúa antes el personaje "
        "(pág. 19).",
        "fh-nl-6",
    ),
    # fh-nl-1
    (
        "Cada jugador elige en secreto dos cartas de capacidad; en su turno realiza la acción superior "
        "de una y la acción inferior de la otra, nunca dos superiores ni dos inferiores, y decide en qué "
        "orden las realiza (págs. 18, 20, 34).",
        "fh-nl-1",
    ),
    # fh-nl-4
    (
        "Solo las paredes y las puertas cerradas bloquean la línea de visión: debe poder trazarse una "
        "línea libre desde cualquier punto del hexágono del atacante hasta cualquier punto del hexágono "
        "objetivo. El alcance no se cuenta a través de paredes, pero sí a través de obstáculos, figuras "
        "y demás terreno (págs. 21, 13–14).",
        "fh-nl-4",
    ),
    # fh-nl-5
    (
        "Las invocaciones de los personajes se colocan junto a quien las invoca y usan su mazo de "
        "modificadores de ataque, pero siguen las reglas automáticas de los monstruos y el invocador no "
        "las controla directamente; actúan justo antes que su invocador en el orden de iniciativa y no "
        "actúan en la ronda en la que aparecen (pág. 31).",
        "fh-nl-5",
    ),
    # fh-nl-3
    (
        "Aplicadas todas las bonificaciones y penalizaciones del ataque, se roba una carta de "
        "modificador de ataque por cada objetivo y se aplican su modificador y sus efectos añadidos "
        "antes del escudo y de la protección; con ventaja se roban dos modificadores y se usa el mejor, "
        "con desventaja se roban dos y se usa el peor, y un ataque a distancia contra un enemigo "
        "adyacente tiene desventaja automáticamente (págs. 25–27).",
        "fh-nl-3",
    ),
    # fh-nl-2
    (
        "Descanso corto, al final de la ronda: pierdes una carta al azar de tu pila de descartes y "
        "recuperas las demás en la mano (una vez puedes sufrir 1 de daño para quedarte con una carta "
        "concreta). Descanso largo, durante la selección de cartas: pierdes una carta de tu elección de "
        "los descartes, recuperas las demás, puedes curarte 2 y recuperas los objetos gastados. Quedas "
        "agotado, fuera del escenario y con todas tus cartas en la pila de perdidas, si llegas a 0 puntos "
        "de vida o no tienes al menos dos cartas para jugar o descansar (pág. 38).",
        "fh-nl-2",
    ),
]

# Frosthaven, French: the last paragraph restates an FAQ clarification (fh-clar-10), not a
# rulebook passage: it must link to no rulebook record.
FRENCH_FROSTHAVEN = [
    # fh-nl-1
    (
        "Chaque joueur choisit en secret deux cartes de capacité ; à son tour, il joue l'action du "
        "haut de l'une et l'action du bas de l'autre, jamais deux actions du haut ni deux du bas, dans "
        "l'ordre qu'il veut (p. 18, 20, 34).",
        "fh-nl-1",
    ),
    # fh-nl-5
    (
        "Les invocations d'un personnage sont placées à côté de lui et utilisent son paquet de "
        "modificateurs d'attaque, mais elles suivent les règles automatiques des monstres sans être "
        "dirigées par lui ; elles jouent juste avant lui dans l'ordre d'initiative et n'agissent pas "
        "pendant le round où elles sont invoquées (p. 31).",
        "fh-nl-5",
    ),
    # fh-nl-4
    (
        "Seuls les murs et les portes fermées bloquent la ligne de vue : il faut pouvoir tracer une "
        "ligne dégagée depuis n'importe quel point de l'hexagone de l'attaquant jusqu'à n'importe quel "
        "point de l'hexagone ciblé ; la portée ne se compte pas à travers les murs, mais bien à travers "
        "les obstacles, les figurines et les autres terrains (p. 21, 13–14).",
        "fh-nl-4",
    ),
    # fh-clar-10 (an FAQ entry, not a rulebook passage: no rulebook link expected)
    (
        "Le Bouclier réduit d'abord les dégâts, et c'est seulement ensuite que Ward ou Brittle "
        "s'appliquent : avec Bouclier 2 et Ward contre 6 dégâts, il reste 4 dégâts après le Bouclier, "
        "puis 2 après Ward (p. 12).",
        None,
    ),
]

FILES = {
    "de": ("Gloomhaven", GERMAN_GLOOMHAVEN),
    "es": ("Frosthaven", SPANISH_FROSTHAVEN),
    "fr": ("Frosthaven", FRENCH_FROSTHAVEN),
}


def excerpt_file(lang: str) -> str:
    """The test file's text: the game's name, then one paragraph per line, blank lines between."""
    game, paragraphs = FILES[lang]
    return game + "\n\n" + "\n\n".join(text for text, _ in paragraphs) + "\n"
