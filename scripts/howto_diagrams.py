"""Draws the diagrams of the how-to-play pages (``docs/howto/img/``) from real games.

The hex diagrams are positions of a seeded game played by the engine and drawn by the
browser's own board writer (:mod:`limitgames.web.hex_svg`): one turn in three pictures,
a move that captures, then the removal. The cards and world diagrams are drawn here
from the rules (``docs/rules/cards.md`` "A round", ``docs/rules/world.md`` "A
generation"); their words come from :data:`LABELS`, one entry per language.

Run: ``.venv/bin/python scripts/howto_diagrams.py`` (writes the SVG files and the
package's copies in ``src/limitgames/web/static/howto/``; a test checks they are current).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from limitgames.core import get_game
from limitgames.translation import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
OUT = (ROOT / "docs" / "howto" / "img", ROOT / "src" / "limitgames" / "web" / "static" / "howto")

STYLE = (
    "<style>.cell-name{font:9px sans-serif;fill:#5b513d}"
    ".last-ring{fill:none;stroke:#1d6f42;stroke-width:4}"
    ".removed-mark polygon{fill:none;stroke:#8a1c1c;stroke-width:2;stroke-dasharray:4 3}"
    ".removed-mark path{stroke:#8a1c1c;stroke-width:3}</style>"
)


def _pawns(observation: dict[str, Any], seat: int) -> int:
    return sum(1 for t in observation["tiles"] if t.get("pawn") == seat)


def hex_turn(seed: int = 1) -> list[tuple[str, str]]:
    """``[(file name, svg)]``: a move that captures and the removal after it, in a seeded
    game of size 3 (two players, random play until the first capture by a move)."""
    from limitgames.web.hex_svg import draw

    game = get_game("hex")
    rng = random.Random(seed)
    for attempt in range(1000):
        state = game.new_initial_state(seed=seed * 1000 + attempt, size=3)
        while not state.is_terminal():
            before = state.observation(None)
            mover = state.current_player()
            actions = state.legal_actions()
            if before["step"] == "move":
                for action in actions:
                    trial = state.clone()
                    trial.apply(action)
                    after = trial.observation(None)
                    enemy = 1 - mover
                    if (
                        _pawns(after, enemy) < _pawns(before, enemy)
                        and not trial.is_terminal()
                        and after["step"] == "remove"
                    ):
                        return _draw_turn(state, action, draw)
            state.apply(actions[rng.randrange(len(actions))])
    raise RuntimeError("no capturing move found")


def _draw_turn(state: Any, action: Any, draw: Any) -> list[tuple[str, str]]:
    names = state.seat_names()
    text = state.action_to_string(action)
    start, _, end = text.partition("-")
    pictures = []
    before = state.observation(None)
    pictures.append(("hex-move.svg", draw(before, names, None, {"from": start, "to": end})[0]))
    state.apply(action)
    moved = state.observation(None)
    pictures.append(("hex-capture.svg", draw(moved, names, None, {"to": end})[0]))
    removal = state.legal_actions()[0]
    removed = state.action_to_string(removal).removeprefix("x ")
    state.apply(removal)
    after = state.observation(None)
    pictures.append(("hex-removal.svg", draw(after, names, None, {"removed": removed})[0]))
    return [(name, _standalone(svg)) for name, svg in pictures]


def _standalone(svg: str) -> str:
    head, sep, rest = svg.partition(">")
    return head + sep + STYLE + rest + "\n"


CARD_FILL = {
    "red": "#c62828",
    "yellow": "#f9c80e",
    "green": "#2e7d32",
    "blue": "#1565c0",
    "purple": "#6a1b9a",
}
"""The five colours of the colour cards (``rules/cards.md``, "Material")."""

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "limit": "limit card",
        "hidden": "hidden cards, revealed",
        "pile": "the pile, in the order played",
        "suspects": "Cleo suspects Bob",
        "sum": "blue limit: 3 + 2 hidden = 5",
        "count": "blue up to Bob's last card: 4",
        "verdict": "4 is not above 5: Cleo takes the limit card (-2), Bob scores +1",
        "political": "Political phase",
        "social": "Social phase",
        "international": "International phase",
        "p": "1 technological advancement|2 new policy|3 political action capacity|4 decide policy",
        "s": "1 supply|2 conserving renewables|3 industrial consumption|4 population growth|"
        "5 lower mortality|6 lower birth rate|7 economic growth|8 taxation|9 production|"
        "10 public order|11 class struggle",
        "i": "1 cold war|2 global crises|3 alliances|4 end of the generation",
        "next": "next generation (up to 7, or until the 4th crisis)",
    },
    "de": {
        "limit": "Limitkarte",
        "hidden": "verdeckte Karten, aufgedeckt",
        "pile": "der Stapel, in der gespielten Reihenfolge",
        "suspects": "Cleo verdächtigt Bob",
        "sum": "Limit für Blau: 3 + 2 verdeckte = 5",
        "count": "Blau bis zu Bobs letzter Karte: 4",
        "verdict": "4 liegt nicht über 5: Cleo nimmt die Limitkarte (-2), Bob erhält +1",
        "political": "Politische Phase",
        "social": "Soziale Phase",
        "international": "Internationale Phase",
        "p": "1 technischer Fortschritt|2 neue Politik|3 politische Handlungsfähigkeit|"
        "4 Politik beschließen",
        "s": "1 Versorgung|2 erneuerbare Ressourcen schonen|3 Industrieverbrauch|"
        "4 Bevölkerungswachstum|5 sinkende Sterblichkeit|6 sinkende Geburtenrate|"
        "7 Wirtschaftswachstum|8 Steuern|9 Produktion|10 öffentliche Ordnung|11 Klassenkampf",
        "i": "1 Kalter Krieg|2 globale Krisen|3 Bündnisse|4 Ende der Generation",
        "next": "nächste Generation (bis zu 7, oder bis zur 4. Krise)",
    },
    "fr": {
        "limit": "carte limite",
        "hidden": "cartes cachées, révélées",
        "pile": "la pile, dans l'ordre joué",
        "suspects": "Cleo soupçonne Bob",
        "sum": "limite du bleu : 3 + 2 cachées = 5",
        "count": "bleues jusqu'à la dernière carte de Bob : 4",
        "verdict": "4 ne dépasse pas 5 : Cleo prend la carte limite (-2), Bob marque +1",
        "political": "Phase politique",
        "social": "Phase sociale",
        "international": "Phase internationale",
        "p": "1 progrès technologique|2 nouvelle politique|3 capacité d'action politique|"
        "4 décider la politique",
        "s": "1 approvisionnement|2 préserver les renouvelables|3 consommation industrielle|"
        "4 croissance démographique|5 baisse de la mortalité|6 baisse de la natalité|"
        "7 croissance économique|8 impôts|9 production|10 ordre public|11 lutte des classes",
        "i": "1 guerre froide|2 crises mondiales|3 alliances|4 fin de la génération",
        "next": "génération suivante (jusqu'à 7, ou jusqu'à la 4e crise)",
    },
    "es": {
        "limit": "carta de límite",
        "hidden": "cartas ocultas, reveladas",
        "pile": "la pila, en el orden jugado",
        "suspects": "Cleo sospecha de Bob",
        "sum": "límite del azul: 3 + 2 ocultas = 5",
        "count": "azules hasta la última carta de Bob: 4",
        "verdict": "4 no supera 5: Cleo se lleva la carta de límite (-2), Bob gana +1",
        "political": "Fase política",
        "social": "Fase social",
        "international": "Fase internacional",
        "p": "1 avance tecnológico|2 nueva política|3 capacidad de acción política|"
        "4 decidir la política",
        "s": "1 abastecimiento|2 conservar renovables|3 consumo industrial|"
        "4 crecimiento de la población|5 menor mortalidad|6 menor natalidad|"
        "7 crecimiento económico|8 impuestos|9 producción|10 orden público|11 lucha de clases",
        "i": "1 guerra fría|2 crisis globales|3 alianzas|4 fin de la generación",
        "next": "siguiente generación (hasta 7, o hasta la 4.ª crisis)",
    },
}
"""The words of the cards and world diagrams, per language code of
:data:`limitgames.translation.LANGUAGES`."""


def _text(x: float, y: float, text: str, size: int = 14, weight: str = "normal") -> str:
    from markupsafe import escape

    return (
        f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="{size}"'
        f' font-weight="{weight}" fill="#222">{escape(text)}</text>'
    )


def _card(x: float, y: float, colour: str | None, label: str = "") -> str:
    fill = CARD_FILL[colour] if colour else "#5d4037"
    mark = "" if colour else '<path d="M8,8L32,52M32,8L8,52" stroke="#8d6e63" stroke-width="3"/>'
    return (
        f'<g transform="translate({x},{y})"><rect width="40" height="60" rx="5" fill="{fill}"'
        f' stroke="#222" stroke-width="1.5"/>{mark}</g>'
        + (_text(x + 2, y + 76, label, 12) if label else "")
    )


def cards_round(language: str) -> str:
    """A round of Limits with a suspicion (``rules/cards.md``, "A round", steps 1-4): the
    rulebook's own limit card (blue 3, red X, yellow 0, green 3, purple 5), three players,
    two blue cards hidden, and a suspicion that fails."""
    words = LABELS[language]
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 330" width="720" height="330"'
        ' role="img">',
        '<rect width="720" height="330" fill="#fbf8f1"/>',
        _text(20, 26, words["limit"], 15, "bold"),
    ]
    limit = (("blue", "3"), ("red", "X"), ("yellow", "0"), ("green", "3"), ("purple", "5"))
    out.append('<rect x="20" y="36" width="120" height="150" rx="8" fill="#fff" stroke="#222"/>')
    for k, (colour, value) in enumerate(limit):
        y = 46 + k * 27
        out.append(
            f'<rect x="32" y="{y}" width="22" height="22" rx="3" fill="{CARD_FILL[colour]}"/>'
        )
        out.append(_text(70, y + 17, value, 18, "bold"))
    out.append(_text(170, 26, words["hidden"], 15, "bold"))
    for k, (who, colour) in enumerate((("Ann", "blue"), ("Bob", "green"), ("Cleo", "blue"))):
        out.append(_card(170 + k * 60, 36, colour, who))
    out.append(_text(20, 222, words["pile"], 15, "bold"))
    pile = (("Ann", "blue"), ("Bob", "green"), ("Cleo", "blue"), ("Ann", "blue"), ("Bob", "blue"))
    for k, (who, colour) in enumerate(pile):
        out.append(_card(20 + k * 52, 232, colour, who))
    out.append(
        '<rect x="222" y="228" width="48" height="68" rx="7" fill="none" stroke="#1d6f42"'
        ' stroke-width="3"/>'
    )
    out.append(_text(350, 60, words["suspects"], 16, "bold"))
    out.append(_text(350, 90, words["sum"]))
    out.append(_text(350, 114, words["count"]))
    verdict = words["verdict"]
    head, _, tail = verdict.partition(": ")
    out.append(_text(350, 146, head + ":", 14, "bold"))
    for k, line in enumerate(tail.split(", ")):
        out.append(_text(350, 170 + 22 * k, line))
    out.append("</svg>\n")
    return "".join(out)


def world_generation(language: str) -> str:
    """A generation of LIMIT (``rules/world.md``, "A generation"): the three phases and
    their steps in the rulebook's order, and the loop to the next generation."""
    words = LABELS[language]
    columns = (
        ("political", "p", "#e3f2fd"),
        ("social", "s", "#e8f5e9"),
        ("international", "i", "#fff3e0"),
    )
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 760 380" width="760" height="380"'
        ' role="img">',
        '<rect width="760" height="380" fill="#fbf8f1"/>',
        '<defs><marker id="arrow" markerWidth="10" markerHeight="10" refX="8" refY="5"'
        ' orient="auto"><path d="M0,0L10,5L0,10z" fill="#444"/></marker></defs>',
    ]
    for k, (title, steps, fill) in enumerate(columns):
        x = 16 + k * 250
        out.append(
            f'<rect x="{x}" y="16" width="228" height="306" rx="10" fill="{fill}" stroke="#555"/>'
        )
        out.append(_text(x + 12, 42, words[title], 16, "bold"))
        for n, step in enumerate(words[steps].split("|")):
            out.append(_text(x + 12, 70 + n * 22, step, 13))
        if k < 2:
            out.append(
                f'<path d="M{x + 230},170L{x + 248},170" stroke="#444" stroke-width="2"'
                ' marker-end="url(#arrow)"/>'
            )
    out.append(
        '<path d="M630,324L630,350L130,350L130,326" fill="none" stroke="#444" stroke-width="2"'
        ' marker-end="url(#arrow)"/>'
    )
    out.append(_text(200, 372, words["next"], 13))
    out.append("</svg>\n")
    return "".join(out)


def main() -> int:
    files = hex_turn()
    for language in LANGUAGES:
        suffix = "" if language == LANGUAGES[0] else f".{language}"
        files.append((f"cards-round{suffix}.svg", cards_round(language)))
        files.append((f"world-generation{suffix}.svg", world_generation(language)))
    for folder in OUT:
        folder.mkdir(parents=True, exist_ok=True)
        for name, svg in files:
            (folder / name).write_text(svg, encoding="utf-8")
    print(f"wrote {len(files)} diagrams")
    return 0


if __name__ == "__main__":
    sys.exit(main())
