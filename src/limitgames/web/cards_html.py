"""Drawing Rosenberg's Limits (``cards``) as HTML from one seat's observation.

Placeholder until the cards engine's observation is known: shows the
observation as a table. Replaced by the real drawing below when it lands.
"""

from __future__ import annotations

from typing import Any

from limitgames.web.views import environment


def draw(observation: dict[str, Any], names: list[str], seat: int | None) -> tuple[str, str]:
    """The table (board HTML) and the side panel HTML for ``seat``'s observation."""
    board = environment.get_template("observation.html.j2").render(observation=observation)
    return board, ""


def status(observation: dict[str, Any], names: list[str]) -> str:
    """The phase of the round in words."""
    return ""
