"""Keep the translation catalogues in step with the code (Babel).

    python scripts/translations.py            # extract, update, compile, then check
    python scripts/translations.py check      # only report what is missing (exit 1 if anything)
    python scripts/translations.py extract|update|compile

``extract`` reads every ``_()``/``gettext``/``ngettext`` of the Python sources,
``{{ _("...") }}`` of the Jinja2 templates and ``t("...")`` of the browser's
scripts (``babel.cfg``) into ``src/limitgames/locale/messages.pot``;
``update`` merges it into each language's ``messages.po`` (new messages come in
untranslated, changed ones fuzzy); ``compile`` writes the ``messages.mo``
files the package ships; ``check`` lists, per language, every message with no
translation (new, empty or fuzzy) and every ``.mo`` older than its ``.po``.
Translate what ``check`` lists in the ``.po`` files, then run the script again.
"""

from __future__ import annotations

import io
import json
import re
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "limitgames" / "locale"
TEMPLATE = LOCALE / "messages.pot"
MAPPING = ROOT / "babel.cfg"
LANGUAGES = ("de", "fr", "es")
"""The translated languages (English is the source)."""
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
STATIC = ROOT / "src" / "limitgames" / "web" / "static"
BROWSER_CALL = re.compile(r'(?<![\w.$])t\(\s*"((?:[^"\\\n]|\\.)*)"')
"""``t("...")`` in a browser script, wherever it stands (Babel's JavaScript extractor misses
the calls inside a template literal's ``${...}`` that pass an object)."""


def browser_messages(text: str) -> list[str]:
    """The messages of every ``t("...")`` call in the JavaScript ``text`` (comments left out)."""
    code = re.sub(r"^\s*//.*$", "", text, flags=re.MULTILINE)
    return [json.loads(f'"{m.group(1)}"') for m in BROWSER_CALL.finditer(code)]


def extract() -> Catalog:
    """Every message of the sources named in ``babel.cfg``, with the files it comes from."""
    with MAPPING.open() as config:
        method_map, options_map = parse_mapping_cfg(config, str(MAPPING))
    catalogue = Catalog(project="limitgames", fuzzy=False)
    for filename, _line, message, comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, strip_comment_tags=True
    ):
        catalogue.add(message, None, [(filename, 0)], auto_comments=comments, context=context)
    for script in sorted(STATIC.rglob("*.js")):
        name = str(script.relative_to(ROOT))
        for message in browser_messages(script.read_text(encoding="utf-8")):
            if message not in catalogue:
                catalogue.add(message, None, [(name, 0)])
    return catalogue


def _write_po(catalogue: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    catalogue.project = "limitgames"
    catalogue.version = "0.1"
    catalogue.copyright_holder = "the limitgames authors"
    catalogue.msgid_bugs_address = ""
    # fixed dates: running the script again changes nothing unless a message did (git dates them)
    catalogue.creation_date = FIXED_DATE
    catalogue.revision_date = FIXED_DATE
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=100, sort_output=True, include_lineno=False)
    path.write_bytes(buffer.getvalue())


def _read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "messages.po"


def mo_bytes(catalogue: Catalog) -> bytes:
    """The compiled form of ``catalogue`` (fuzzy translations left out, as gettext does)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalogue, use_fuzzy=False)
    return buffer.getvalue()


def write_template() -> Catalog:
    template = extract()
    _write_po(template, TEMPLATE)
    return template


def update(template: Catalog) -> None:
    """Merge ``template`` into each language's catalogue (a missing one is created)."""
    for language in LANGUAGES:
        path = po_path(language)
        if path.exists():
            catalogue = _read(path, language)
        else:
            catalogue = Catalog(locale=language, project="limitgames")
        catalogue.update(template, no_fuzzy_matching=True)
        catalogue.obsolete.clear()
        _write_po(catalogue, path)


def compile_all() -> None:
    for language in LANGUAGES:
        path = po_path(language)
        path.with_suffix(".mo").write_bytes(mo_bytes(_read(path, language)))


@dataclass
class Report:
    """What one language still lacks."""

    language: str
    untranslated: list[str] = field(default_factory=list)
    stale_mo: bool = False

    def lines(self) -> list[str]:
        out = [f"{self.language}: {len(self.untranslated)} untranslated"]
        out += [f"  {message!r}" for message in self.untranslated]
        if self.stale_mo:
            out.append(f"  messages.mo is not the compiled messages.po: run {Path(__file__).name}")
        return out


def _message_key(message_id: str | tuple[str, ...]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def check(template: Catalog | None = None) -> list[Report]:
    """For each language: the messages of the sources it does not translate, and a stale ``.mo``.

    A message counts as translated when the ``.po`` has it, not fuzzy, with
    every form non-empty.
    """
    template = template if template is not None else extract()
    reports = []
    for language in LANGUAGES:
        report = Report(language)
        path = po_path(language)
        catalogue = _read(path, language) if path.exists() else Catalog(locale=language)
        for message in template:
            if not message.id:
                continue
            found = catalogue.get(message.id, message.context)
            strings = found.string if found is not None else None
            forms = list(strings) if isinstance(strings, tuple) else [strings]
            if found is None or found.fuzzy or not all(forms):
                report.untranslated.append(_message_key(message.id))
        mo = path.with_suffix(".mo")
        report.stale_mo = path.exists() and (
            not mo.exists() or mo.read_bytes() != mo_bytes(catalogue)
        )
        reports.append(report)
    return reports


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "all"
    if command not in ("all", "extract", "update", "compile", "check"):
        print(__doc__)
        return 2
    template = None
    if command in ("all", "extract", "update"):
        template = write_template()
        print(f"extracted {len(template)} messages into {TEMPLATE.relative_to(ROOT)}")
    if command in ("all", "update"):
        assert template is not None
        update(template)
    if command in ("all", "compile", "update"):
        compile_all()
    if command in ("all", "check"):
        reports = check(template)
        for report in reports:
            print("\n".join(report.lines()))
        return 1 if any(r.untranslated or r.stale_mo for r in reports) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
