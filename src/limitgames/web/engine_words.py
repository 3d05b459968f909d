"""The computer's levels as the lobby names them, marked for the translation catalogues.

The games' own words (``GameInfo.description``, each variant parameter's ``help``, ``label``
and ``choice_labels``) are marked with :func:`~limitgames.translation.N_` where the games
declare them, and the lobby shows them translated (:func:`limitgames.web.app.catalog`,
``static/lobby.js``). The levels are agent names (``limitgames.agents.levels``), listed here for
Babel to extract; ``tests/web/test_languages.py`` fails when a word the lobby shows is missing
from the catalogue (then mark it and run ``scripts/translations.sh``).
"""

from __future__ import annotations

from limitgames.translation import N_

LEVEL_WORDS: tuple[str, ...] = (N_("random"), N_("easy"), N_("medium"), N_("hard"), N_("expert"))
"""The computer's levels."""
