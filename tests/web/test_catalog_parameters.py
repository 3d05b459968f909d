"""The lobby's form comes from the games' one declaration of their variant parameters."""

from __future__ import annotations

from fastapi.testclient import TestClient

from limitgames.core import get_game


def test_the_catalog_is_the_declaration_in_the_request_language(client: TestClient) -> None:
    """Names, kinds, defaults, choices and ranges as declared; the label, help and choice labels
    in the request's language (German: the catalogue's entries, in the choices' order)."""
    english = {g["id"]: g for g in client.get("/api/catalog").json()}
    german = {
        g["id"]: g for g in client.get("/api/catalog", headers={"Accept-Language": "de"}).json()
    }
    for game_id in ("hex", "cards", "world"):
        declared = [p for p in get_game(game_id).info.parameters if not p.local]
        declared = [p for p in declared if p.kind != "path"]  # offered only with data sets
        shown = {p["name"]: p for p in english[game_id]["parameters"]}
        assert set(shown) == {p.name for p in declared}
        for p in declared:
            row = shown[p.name]
            assert (row["kind"], row["default"], row["minimum"], row["maximum"]) == (
                p.kind,
                p.default,
                p.minimum,
                p.maximum,
            )
            assert row["label"] == p.title and row["help"] == p.help
            if p.choices is None:
                assert row["choices"] is None and row["choice_labels"] is None
            else:
                assert row["choices"] == list(p.choices)
                assert row["choice_labels"] == [p.choice_label(c) for c in p.choices]
    layout = {p["name"]: p for p in german["hex"]["parameters"]}["layout"]
    assert layout["choices"] == ["grown", "uniform"]  # the values sent stay the game's
    assert layout["choice_labels"] == [
        "gewachsen (kompakt, wie am Tisch)",
        "gleichverteilt (lange, dünne Formen)",
    ]
