"""The terminal's variant options, built from the game's one declaration (``GameInfo.parameters``).

A command that plays or measures one game takes each of the game's variant parameters as its
own option (``--layout uniform``, ``--players 3``; ``--solo/--no-solo`` for a yes/no one) and
the generic ``-v/--variant NAME=VALUE`` (repeatable, any parameter). Both reach the engine
through :meth:`~limitgames.core.protocol.Parameter.coerce`: an unknown name or a bad value
stops the command with one line naming the parameter. The options' help is the parameter's
``help``, kept in English and translated when the help is drawn
(:class:`~limitgames.cli.options.TranslatedHelpCommand`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any

import typer

from limitgames.core import LimitGamesError, Parameter, VariantError, get_game
from limitgames.translation import N_
from limitgames.translation import gettext as _

VARIANT_HELP = N_(
    "A variant parameter as NAME=VALUE, the same as its own option (repeatable; limit games "
    "lists them). Example: -v players=3"
)
"""The help of ``-v/--variant`` (translated when drawn)."""

SHORT_NAMES: dict[str, str] = {"players": "-n"}
"""The one-letter option of a parameter, the same for every game."""

_PREFIX = "variant__"
"""The prefix of the generated Python parameters (no clash with a command's own)."""


def option_name(parameter: Parameter) -> str:
    """The long option of ``parameter``: ``--`` and its name with dashes (``--stress-tests``)."""
    return "--" + parameter.name.replace("_", "-")


def metavar(parameter: Parameter) -> str:
    """What the help shows after the option: the choices (``grown|uniform``), the range of a
    number (``2-16``), ``FILE`` or ``TEXT``."""
    if parameter.choices is not None:
        return "|".join(str(c) for c in parameter.choices)
    if parameter.kind in ("int", "float") and (
        parameter.minimum is not None or parameter.maximum is not None
    ):
        low = "" if parameter.minimum is None else f"{parameter.minimum:g}"
        high = "" if parameter.maximum is None else f"{parameter.maximum:g}"
        return f"{low}-{high}"
    return {"int": "INTEGER", "float": "NUMBER", "path": "FILE"}.get(parameter.kind, "TEXT")


def offered(
    game_id: str, exclude: Sequence[str] = (), only: Sequence[str] | None = None
) -> list[Parameter]:
    """The parameters of ``game_id`` that get their own option: those in ``only`` (default:
    all) but not in ``exclude``, and never the ``local`` ones (a data override written by the
    program, not by a person)."""
    return [
        p
        for p in get_game(game_id).info.parameters
        if p.name not in exclude and (only is None or p.name in only) and not p.local
    ]


def _option(parameter: Parameter) -> Any:
    """The annotation (type and ``typer.Option``) of the generated option for ``parameter``."""
    names = [option_name(parameter)]
    if parameter.kind == "bool":
        names = [f"{names[0]}/--no-{names[0][2:]}"]
    if parameter.name in SHORT_NAMES:
        names.append(SHORT_NAMES[parameter.name])
    shown = "" if parameter.default is None else str(parameter.default)
    info = typer.Option(
        *names,
        help=parameter.help,
        metavar="" if parameter.kind == "bool" else metavar(parameter),
        show_default=shown or False,
    )
    kind: Any = bool | None if parameter.kind == "bool" else str | None
    return Annotated[kind, info]


def parse_variant(game_id: str, pairs: Sequence[str], named: Mapping[str, Any]) -> dict[str, Any]:
    """The variant of ``-v NAME=VALUE`` ``pairs`` and of the ``named`` options given (name ->
    value; ``None`` means not given), each value checked by its parameter.

    Raises :class:`VariantError` (one line naming the parameter) for a pair that is not
    ``NAME=VALUE``, an unknown name, a parameter given twice or a bad value.
    """
    info = get_game(game_id).info
    given: dict[str, Any] = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        name = name.strip()
        if not equals or not name:
            raise VariantError(
                _("--variant %(pair)r: write NAME=VALUE, e.g. -v size=6") % {"pair": pair}
            )
        if name in given:
            raise VariantError(_("%(name)s: given twice") % {"name": name})
        given[name] = info.parameter(name).coerce(value.strip())
    for name, value in named.items():
        if value is None:
            continue
        if name in given:
            raise VariantError(_("%(name)s: given twice") % {"name": name})
        given[name] = info.parameter(name).coerce(value)
    return given


class VariantCommand:
    """A command function with the variant options of one game added (see :func:`variant_options`).

    Typer reads the command's parameters from :attr:`__signature__`, which is built on first
    use: ``limit --help`` loads no engine, ``limit play hex`` only hex's declaration.
    """

    def __init__(
        self,
        func: Callable[..., Any],
        game_id: str,
        exclude: Sequence[str],
        only: Sequence[str] | None,
        defaults: Mapping[str, Any],
    ) -> None:
        self.func = func
        self.game_id = game_id
        self.exclude = tuple(exclude)
        self.only = None if only is None else tuple(only)
        self.defaults = dict(defaults)
        # what Typer reads besides the signature (no __wrapped__: the signature below is the one)
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__module__ = func.__module__
        self.__doc__ = func.__doc__

    @functools.cached_property
    def parameters(self) -> list[Parameter]:
        """The parameters that get their own option (:func:`offered`)."""
        return offered(self.game_id, self.exclude, self.only)

    @functools.cached_property
    def __signature__(self) -> inspect.Signature:
        """The function's own options (``variant`` left out), the variant's, ``-v``, then
        ``--language``."""
        signature = inspect.signature(self.func, eval_str=True)
        own = [p for p in signature.parameters.values() if p.name != "variant"]
        keyword = inspect.Parameter.KEYWORD_ONLY
        extra = [
            inspect.Parameter(_PREFIX + p.name, keyword, annotation=_option(p), default=None)
            for p in self.parameters
        ]
        pairs = inspect.Parameter(
            _PREFIX + "pairs",
            keyword,
            annotation=Annotated[
                list[str] | None,
                typer.Option("--variant", "-v", metavar="NAME=VALUE", help=VARIANT_HELP),
            ],
            default=None,
        )
        language = [p.replace(kind=keyword) for p in own if p.name == "language"]
        return signature.replace(
            parameters=[
                *(p.replace(kind=keyword) for p in own if p.name != "language"),
                *extra,
                pairs,
                *language,
            ]
        )

    @property
    def __annotations__(self) -> dict[str, Any]:  # type: ignore[override]
        """The annotations of :attr:`__signature__` (what ``typing.get_type_hints`` reads)."""
        return {p.name: p.annotation for p in self.__signature__.parameters.values()}

    def __call__(self, **kwargs: Any) -> Any:
        """Run the command with ``variant=`` the parameters given (checked), over the defaults."""
        from limitgames.cli.options import choose_language, fail

        named = {p.name: kwargs.pop(_PREFIX + p.name, None) for p in self.parameters}
        pairs = kwargs.pop(_PREFIX + "pairs", None) or []
        choose_language(kwargs.get("language"))  # an error in the command's language
        try:
            variant = parse_variant(self.game_id, pairs, named)
        except LimitGamesError as exc:
            message = exc.translated(_) if isinstance(exc, VariantError) else str(exc)
            raise fail(message, soft_wrap=True) from None
        return self.func(**kwargs, variant={**self.defaults, **variant})


def variant_options(
    game_id: str,
    exclude: Sequence[str] = (),
    only: Sequence[str] | None = None,
    defaults: Mapping[str, Any] | None = None,
) -> Callable[[Callable[..., Any]], VariantCommand]:
    """Give a command the options of ``game_id``'s variant parameters and ``-v/--variant``.

    The decorated function takes a keyword ``variant: dict[str, Any]``: the parameters given
    on the command line (checked; the others are left to the game's defaults), over
    ``defaults``. Its other parameters stay its own options; parameters named in ``exclude``
    or missing from ``only`` get no option of their own (``-v`` still takes them). A bad variant ends the command with
    ``error: ...`` on one line (exit code 1).
    """

    def decorate(func: Callable[..., Any]) -> VariantCommand:
        return VariantCommand(func, game_id, exclude, only, defaults or {})

    return decorate
