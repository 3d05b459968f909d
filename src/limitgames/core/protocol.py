"""The game protocol: metadata, variants, and the ``Game`` / ``State`` API.

Modelled on OpenSpiel's State API in Python idiom (see ``DESIGN.md``):

- :class:`GameInfo` says what a game is: id, title, designer, player range,
  the variant parameters and the rules version.
- :class:`Game` makes states: ``new_initial_state(seed=..., **variant)``.
- :class:`State` is one position with its history: whose turn it is, which
  actions are legal, how to apply one, cheap cloning, the result, what each
  seat may see, a round-tripping notation, and (for games with hidden
  information) determinization.

Seats are numbered ``0 .. players-1``. ``current_player()`` returns a seat or
:data:`TERMINAL`. Actions are small immutable, hashable values (ints, tuples or
frozen dataclasses); each game documents their notation.

Chance (a random layout, a shuffle) is drawn through :class:`~limitgames.core.chance.Chance`,
whose outcomes become part of the game's history, so that a record replays
exactly even if the code later draws random numbers differently.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from limitgames.core.errors import N_, VariantError
from limitgames.core.events import ActionTaken, Event, Outcome

TERMINAL: int = -4
"""``current_player()`` of a finished game (OpenSpiel's ``kTerminalPlayerId``)."""

Action = Hashable
"""An action: a small immutable value with a canonical string form."""

ParameterKind = Literal["int", "str", "bool", "float", "path"]


@dataclass(frozen=True)
class AmountForm:
    """A parametric action open now: a verb whose whole-number amount ranges over an interval.

    ``prefix + (amount,) + suffix`` is legal for every ``amount`` in ``minimum..maximum``,
    whether or not :meth:`State.legal_actions` lists it (a game may list a sample of a long
    range so that random play stays quick). Interfaces show the range and agents may choose
    any amount in it; :meth:`State.is_legal` accepts exactly these.

    Attributes:
        verb: the action's verb (``"buy"``).
        prefix: the action's parts before the amount, the verb first (``("buy",)``).
        suffix: the parts after the amount (``("fossil",)``).
        minimum, maximum: the inclusive range of the amount.
        notation: the form for people, the amount written ``N`` (``"buy N fossil"``).
    """

    verb: str
    prefix: tuple[Hashable, ...]
    suffix: tuple[Hashable, ...]
    minimum: int
    maximum: int
    notation: str

    def action(self, amount: int) -> tuple[Hashable, ...]:
        """The action with ``amount``. Raises ValueError outside ``minimum..maximum``."""
        if not self.minimum <= amount <= self.maximum:
            raise ValueError(f"{self.notation}: N must be {self.minimum}..{self.maximum}")
        return (*self.prefix, amount, *self.suffix)

    def describe(self) -> dict[str, Any]:
        """JSON-ready: ``{"verb", "notation", "minimum", "maximum"}``."""
        return {
            "verb": self.verb,
            "notation": self.notation,
            "minimum": self.minimum,
            "maximum": self.maximum,
        }


@dataclass(frozen=True)
class Parameter:
    """One variant parameter of a game.

    Attributes:
        name: the key, as written in ``--variant name=value`` and in records.
        kind: ``"int"``, ``"str"``, ``"bool"``, ``"float"`` or ``"path"`` (a
            file name; ``None``/empty means the game's own data).
        default: the value used when none is given.
        help: one line for people.
        choices: the allowed values, or ``None`` for any value of the kind.
        minimum, maximum: inclusive bounds for numbers, or ``None``.
        local: set only on the machine that runs the game (a data override); a network
            server neither offers it nor takes it from a client.
        label: the name people read (a form's label, a table's row), or ``""`` for ``name``.
        choice_labels: what people read for each of ``choices``, in the same order, or
            ``()`` for the values themselves.

    ``help``, ``label`` and ``choice_labels`` are English and marked for the translation
    catalogues where they are declared (``N_``); each surface translates them when it shows
    them. This declaration is the only one: the terminal's options
    (:mod:`limitgames.cli.variant_options`), the lobby's form (``web/app.py`` ``catalog``)
    and the docs' tables (``limit games --markdown``) are built from it.
    """

    name: str
    kind: ParameterKind
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    local: bool = False
    label: str = ""
    choice_labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.choice_labels and (
            self.choices is None or len(self.choice_labels) != len(self.choices)
        ):
            raise ValueError(f"{self.name}: one choice label per choice")

    @property
    def title(self) -> str:
        """The name people read: :attr:`label`, else :attr:`name` (English)."""
        return self.label or self.name

    def choice_label(self, value: Any) -> str:
        """What people read for the choice ``value`` (English); its string if it has no label."""
        if self.choices is not None and self.choice_labels and value in self.choices:
            return self.choice_labels[self.choices.index(value)]
        return str(value)

    def coerce(self, value: Any) -> Any:
        """Return ``value`` as this parameter's kind, checked.

        Strings (from the command line) are converted. Raises
        :class:`VariantError` naming the parameter and the allowed values.
        """
        if value is None:
            if self.kind == "path" or self.default is None:
                return None
            raise VariantError.because(N_("%(name)s: a value is required"), name=self.name)
        try:
            if self.kind == "int":
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError
                result: Any = int(value)
            elif self.kind == "float":
                result = float(value)
            elif self.kind == "bool":
                if isinstance(value, str):
                    low = value.strip().lower()
                    if low in ("1", "true", "yes", "on"):
                        result = True
                    elif low in ("0", "false", "no", "off"):
                        result = False
                    else:
                        raise ValueError
                else:
                    result = bool(value)
            else:
                result = str(value)
                if self.kind == "path" and result == "":
                    return None
        except (TypeError, ValueError):
            raise VariantError.because(
                N_("%(name)s: %(value)r is not a %(kind)s"),
                name=self.name,
                value=value,
                kind=self.kind,
            ) from None
        if self.choices is not None and result not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise VariantError.because(
                N_("%(name)s: %(value)r is not one of %(allowed)s"),
                name=self.name,
                value=result,
                allowed=allowed,
            )
        if self.minimum is not None and result < self.minimum:
            raise VariantError.because(
                N_("%(name)s: %(value)s is below the minimum %(minimum)s"),
                name=self.name,
                value=result,
                minimum=f"{self.minimum:g}",
            )
        if self.maximum is not None and result > self.maximum:
            raise VariantError.because(
                N_("%(name)s: %(value)s is above the maximum %(maximum)s"),
                name=self.name,
                value=result,
                maximum=f"{self.maximum:g}",
            )
        return result

    def describe(self) -> str:
        """A one-line description: ``name (kind, default D, choices ...)``."""
        parts = [self.kind, f"default {self.default}"]
        if self.choices is not None:
            parts.append("one of " + "/".join(str(c) for c in self.choices))
        elif self.minimum is not None or self.maximum is not None:
            lo = "" if self.minimum is None else f"{self.minimum:g}"
            hi = "" if self.maximum is None else f"{self.maximum:g}"
            parts.append(f"{lo}..{hi}")
        return f"{self.name} ({', '.join(parts)}): {self.help}"


@dataclass(frozen=True)
class GameInfo:
    """What a game is. Declarative, like OpenSpiel's ``GameType``.

    Attributes:
        id: the registry key (``"hex"``, ``"cards"``, ``"world"``).
        title, designer, year: the published game.
        min_players, max_players: the player range over all variants.
        parameters: the variant parameters; ``players`` is always one of them.
        rules_version: bumped whenever the engine's behaviour changes, so a
            record states which rules it was played under.
        rules_doc: where the rules as played are written (project path).
        perfect_information: ``False`` if some seats hold hidden information.
        description: one paragraph for people.
    """

    id: str
    title: str
    designer: str
    year: int
    min_players: int
    max_players: int
    parameters: tuple[Parameter, ...]
    rules_version: str
    rules_doc: str
    perfect_information: bool
    description: str = ""
    editions: tuple[str, ...] = field(default=())

    def parameter(self, name: str) -> Parameter:
        """Return the parameter called ``name``; raise :class:`VariantError` if unknown."""
        for p in self.parameters:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.parameters)
        raise VariantError.because(
            N_("%(game)s has no parameter %(name)r (known: %(known)s)"),
            game=self.id,
            name=name,
            known=known,
        )

    def resolve_variant(self, variant: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Return every parameter's value: the given ones checked, the rest defaults.

        Raises :class:`VariantError` for an unknown key or a bad value.
        """
        given = dict(variant or {})
        result: dict[str, Any] = {}
        for p in self.parameters:
            result[p.name] = p.coerce(given.pop(p.name)) if p.name in given else p.default
        if given:
            self.parameter(next(iter(given)))  # raises with the list of known names
        return result


def parse_variant_options(options: Sequence[str]) -> dict[str, str]:
    """Turn ``["size=6", "edition=2008"]`` into a dict; raise :class:`VariantError` on a bad item."""
    result: dict[str, str] = {}
    for item in options:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise VariantError(f"variant option {item!r} is not of the form name=value")
        result[key.strip()] = value.strip()
    return result


class State(ABC):
    """One position of a game, with its history.

    Subclasses implement the abstract methods. ``apply`` must leave the state
    unchanged when it raises :class:`~limitgames.core.errors.IllegalActionError`.
    """

    game_id: ClassVar[str]

    # --- whose turn, what is legal, how play goes on -----------------------
    @property
    @abstractmethod
    def num_players(self) -> int:
        """The number of seats in this game."""

    @property
    @abstractmethod
    def variant(self) -> dict[str, Any]:
        """The resolved variant parameters this game is played with."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat to decide now, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The actions the current seat may take, in a fixed order; ``[]`` iff terminal."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Play ``action`` for the current seat.

        Raises:
            IllegalActionError: with the rule that forbids it; the state is unchanged.
        """

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """One number per seat: the result so far (final once terminal)."""

    # --- notation --------------------------------------------------------
    @abstractmethod
    def action_to_string(self, action: Action) -> str:
        """The canonical notation of ``action`` in this state (round-trips with ``parse_action``)."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read notation. Raises :class:`NotationError` if ``text`` is not an action here.

        Parsing does not check legality: ``apply`` does, with the reason.
        """

    def apply_with_events(self, action: Action) -> list[Event]:
        """Play ``action`` like :meth:`apply` and return what happened, in order, each event
        saying which seats may see it (:mod:`limitgames.core.events`).

        :meth:`apply` stays the fast path for search; surfaces, replays and the arena call
        this one. Default: one :class:`~limitgames.core.events.ActionTaken` with the action's
        notation, public unless :meth:`announcement` keeps it secret. Engines override it.

        Raises:
            IllegalActionError: as :meth:`apply`; the state is unchanged.
        """
        seat = self.current_player()
        public = self.announcement(action, None)
        text = self.action_to_string(action)
        self.apply(action)
        audience = None if public is not None else frozenset({seat})
        return [ActionTaken(seat, text, audience=audience)]

    def outcome(self) -> Outcome | None:
        """Why and how the game ended (:class:`~limitgames.core.events.Outcome`), or ``None``
        while it is not over. Every finished state of every engine has one: engines override
        this; the default raises NotImplementedError for a finished game."""
        if not self.is_terminal():
            return None
        raise NotImplementedError(f"{self.game_id} does not say why its games end")

    def apply_string(self, text: str) -> Action:
        """Parse ``text`` and apply it; return the action. Raises NotationError or IllegalActionError."""
        action = self.parse_action(text)
        self.apply(action)
        return action

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now: exact, never raising. Every caller (interfaces,
        record replay, agents) asks this rather than testing membership in ``legal_actions()``,
        which may list only a sample of a quantity's range (see :meth:`action_forms`).
        Default: membership in ``legal_actions()``; games with sampled ranges override it."""
        try:
            return action in self.legal_actions()
        except TypeError:  # an unhashable value is no action
            return False

    def action_forms(self) -> list[AmountForm]:
        """The parametric actions open now, each with the whole range of its amount
        (:class:`AmountForm`); ``[]`` for games without quantities, and once the game is over."""
        return []

    # --- information ------------------------------------------------------
    @abstractmethod
    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as a JSON-ready dict; ``None`` is a spectator."""

    def revelations(self, seat: int) -> int:
        """How many times ``seat`` has been shown information hidden from it until then (cards
        drawn, other seats' secret choices revealed). Interfaces never take back a decision
        across a revelation. Default 0: nothing hidden is ever revealed."""
        return 0

    def announcement(self, action: Action, viewer: int | None) -> str | None:
        """The current seat's ``action`` (before it is applied) as ``viewer`` (``None``: a
        spectator) may learn of it at a real table: its notation, or ``None`` if the choice is
        secret. Default: the notation (games with secret choices override it)."""
        return self.action_to_string(action)

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with everything ``seat`` knows, hidden parts dealt at random.

        For games of perfect information this is a clone.
        """
        return self.clone()

    # --- history and copies ----------------------------------------------
    @abstractmethod
    def history(self) -> list[Action]:
        """The actions applied since the initial state (or the loaded position)."""

    @abstractmethod
    def chance_outcomes(self) -> list[dict[str, Any]]:
        """The chance outcomes drawn so far, in order: ``[{"kind": ..., "value": ...}]``."""

    def clone(self) -> State:
        """An independent copy. Subclasses override with something cheaper."""
        return copy.deepcopy(self)

    def key(self) -> Hashable:
        """A hashable summary of the full state (for transposition tables and repetition).

        Two states with equal keys must be the same position with the same player
        to move. Engines override this with something fast (e.g. Zobrist hashing).
        """
        import json

        return json.dumps([self.current_player(), self.observation(None)], sort_keys=True)

    def seat_names(self) -> list[str]:
        """A name per seat for people (a colour, a nation); default ``seat 0``, ``seat 1``..."""
        return [f"seat {i}" for i in range(self.num_players)]

    def start_position(self) -> dict[str, Any] | None:
        """The position this game was loaded from, or ``None`` if it began at the initial state."""
        return None

    def playout(self, rng: random.Random, max_decisions: int | None = None) -> list[float]:
        """Play this state with uniformly random legal actions to the end, or for at most
        ``max_decisions`` decisions (a cut-off playout); return ``returns()`` (all zeros while
        the game is not over).

        Mutates ``self``. Engines override this with a fast loop; the result's
        distribution must be the same as this reference implementation's.
        """
        played = 0
        while not self.is_terminal() and (max_decisions is None or played < max_decisions):
            played += 1
            actions = self.legal_actions()
            self.apply(actions[rng.randrange(len(actions))])
        return self.returns()

    # --- research encodings (see limitgames.core.encoding) --------------------
    def action_to_index(self, action: Action) -> int:
        """The fixed index of ``action`` in ``0 .. num_distinct_actions - 1`` (its meaning does not
        depend on the position). Raises ValueError for a value that is no action of this variant."""
        raise NotImplementedError(f"{self.game_id} has no action encoding")

    def index_to_action(self, index: int) -> Action:
        """The action of a fixed index (inverse of :meth:`action_to_index`). Raises ValueError
        for an index out of range, or one that names nothing in this position (a hex tile number
        past the last tile)."""
        raise NotImplementedError(f"{self.game_id} has no action encoding")

    def legal_action_mask(self) -> Any:
        """``numpy.bool_[num_distinct_actions]``: which indices are legal now (none once over)."""
        raise NotImplementedError(f"{self.game_id} has no action encoding")

    def legal_action_indices(self) -> list[int]:
        """The fixed indices of the legal actions, in increasing order (``[]`` once over): the
        ``True`` entries of :meth:`legal_action_mask`. Games whose actions are their indices
        override it with something quicker (the research adapters call it at every step)."""
        indices: list[int] = self.legal_action_mask().nonzero()[0].tolist()
        return indices

    def apply_index(self, index: int) -> None:
        """Apply the action of a fixed index (:meth:`index_to_action`, then :meth:`apply`).

        Raises:
            ValueError: for an index that names no action of this variant.
            IllegalActionError: as :meth:`apply`; the state is unchanged.
        """
        self.apply(self.index_to_action(index))

    def observation_tensor(self, seat: int) -> Any:
        """``numpy.float32`` array of the game's documented shape: what ``seat`` may know."""
        raise NotImplementedError(f"{self.game_id} has no observation tensor")

    def information_state_string(self, seat: int) -> str:
        """What ``seat`` has seen and done so far, as text (equal strings: ``seat`` cannot tell
        the positions apart). For perfect-information games, the history."""
        raise NotImplementedError(f"{self.game_id} has no information state string")

    def __str__(self) -> str:
        return f"<{self.game_id} state, to move: {self.current_player()}>"


class Game(ABC):
    """A game: its metadata and a factory of initial states."""

    info: ClassVar[GameInfo]

    @abstractmethod
    def new_initial_state(
        self, seed: int | None = None, chance: Any = None, **variant: Any
    ) -> State:
        """A new game.

        Args:
            seed: seeds the game's chance (layout, shuffles); ``None`` draws one.
            chance: a :class:`~limitgames.core.chance.Chance` to replay recorded
                outcomes instead (then ``seed`` is ignored).
            **variant: variant parameters (see ``info.parameters``).

        Raises:
            VariantError: for an unknown parameter or a bad value.
        """

    def encoding_spec(self, **variant: Any) -> Any:
        """The fixed sizes of ``variant`` (:class:`~limitgames.core.encoding.EncodingSpec`): the
        number of distinct actions, the observation shape, the longest game, the utility range,
        the chance mode. Raises VariantError for a bad variant."""
        raise NotImplementedError(f"{self.info.id} has no research encoding")

    def setup_chance(self, **variant: Any) -> Any:
        """The setup's chance outcomes as explicit chance nodes
        (:class:`~limitgames.core.encoding.SetupChance`). Raises VariantError for a bad variant."""
        raise NotImplementedError(f"{self.info.id} has no explicit chance")

    def state_from_position(self, position: Mapping[str, Any]) -> State:
        """A state loaded from this game's position JSON.

        Raises:
            PositionError: with a one-line reason if the position is malformed.
            NotImplementedError: if the game has no position format.
        """
        raise NotImplementedError(f"{self.info.id} has no position format")

    def __repr__(self) -> str:
        return f"<Game {self.info.id}>"
