"""Compute the World3 reference runs that ``limit debrief`` draws beside a world game.

Run it once when the reference changes (it needs packages the game itself does not)::

    pip install pyworld3 astunparse networkx
    pip install --no-deps pydynamo-w==0.0.2   # its pinned numpy 1.22 has no wheel for 3.11
    python scripts/world3_reference.py            # writes src/limitgames/world/world3_reference.json
    python scripts/world3_reference.py --check    # only checks the runs' landmarks

**1972 standard run**: pyworld3 (C. Vanwynsberghe's Python port of World3 as described in
Meadows et al., *Dynamics of Growth in a Finite World*, 1974), every constant at its
default, 1900-2100 in steps of 0.5 year. Landmarks checked: world population peaks at
about 7.06 billion in 2027, the persistent pollution index at about 11 in 2034.

**2004 update, scenario 1** (*Limits to Growth: The 30-Year Update*, Meadows, Randers and
Meadows, 2004, chapter 4; the World3-03 model): pydynamo-w 0.0.2 (A. Baucher's DYNAMO
interpreter with the "WORLD3 2003 updated equations" and the book's scenarios; scenario #1
"Business as usual" changes no constant), 1900-2100 in steps of 0.5 year. pydynamo-w
0.0.2 predates numpy 2: the script aliases ``numpy.NAN`` to ``numpy.nan`` and stubs
``pyvis`` (a graph viewer pydynamo imports for drawing only; nothing is drawn). Landmarks
checked: those of an independent implementation, PyWorld3-03 (T. Schell, a port of the
book's STELLA model, github.com/TimSchell98/PyWorld3-03 at c19b495, run by hand on
2026-11-23 with its defaults): population peak 7.728 billion in 2028.5, pollution index
peak 10.99 in 2037.5; pydynamo-w gives 7.704 billion in 2027.5 and 10.85 in 2038.5.
"""

from __future__ import annotations

import argparse
import inspect
import json
import platform
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

TARGET = Path(__file__).resolve().parent.parent / "src/limitgames/world/world3_reference.json"

RUN = {"year_min": 1900, "year_max": 2100, "dt": 0.5, "pyear": 1975, "iphst": 1940}
"""pyworld3's ``World3`` arguments (its defaults, with the horizon written out)."""

SERIES = {
    "population": ("pop", "persons", "total population"),
    "pollution_index": ("ppolx", "index, 1970 = 1", "persistent pollution index"),
    "resources_fraction": (
        "nrfr",
        "fraction of 1900",
        "nonrenewable resources remaining, fraction of the 1900 stock",
    ),
    "food": ("f", "vegetable-equivalent kg per year", "food production"),
    "industrial_output": ("io", "1968 $ per year", "industrial output"),
    "food_per_capita": ("fpc", "vegetable-equivalent kg per person per year", "food per capita"),
    "industrial_output_per_capita": (
        "iopc",
        "1968 $ per person per year",
        "industrial output per capita",
    ),
}
"""name in the data file -> (pyworld3 variable, unit, meaning)."""

LANDMARKS = {
    "population_peak": {"year": 2027.0, "value": 7.06e9, "tolerance": 0.02},
    "pollution_peak": {"year": 2034.5, "value": 11.0, "tolerance": 0.03},
}
"""What the standard run must show (relative tolerance on the value; the year exactly)."""

SCENARIO_2004 = {
    "name": "2004 update, scenario 1",
    "model": "World3-03",
    "source": (
        "D. Meadows, J. Randers, D. Meadows, Limits to Growth: The 30-Year Update "
        "(Chelsea Green, 2004), chapter 4, scenario 1 ('a reference point'; pydynamo-w: 'business as usual'); model World3-03"
    ),
}
MORE_SCENARIOS_2004 = {
    2: (
        "2004 update, scenario 2",
        "chapter 4, scenario 2 ('more abundant nonrenewable resources'; pydynamo-w: 'double "
        "-- and more accessible -- non-renewable resources')",
    ),
    9: (
        "2004 update, scenario 9",
        "chapter 7, scenario 9 ('population and capital goals plus improved technologies'; "
        "pydynamo-w: 'Scenario #8 plus resource-, pollution- and yield technologies and "
        "erosion control advancing from 2002')",
    ),
}
"""The other 2004 scenarios shipped beside scenario 1: number -> (name, where in the book).
They are computed with the same pydynamo-w run as scenario 1 (whose landmarks match
PyWorld3-03); no independent implementation was run for them."""
LANDMARKS_2004 = {
    "population_peak": {"year": 2028.5, "value": 7.728e9, "tolerance": 0.01, "years": 2.0},
    "pollution_peak": {"year": 2037.5, "value": 10.99, "tolerance": 0.02, "years": 2.0},
}
"""PyWorld3-03's scenario 1 (see the module docstring): the 2004 run must agree with it
(relative tolerance on the value, years on the date)."""


def _series(world: Any, years_step: int) -> dict[str, Any]:
    import numpy as np

    series: dict[str, Any] = {}
    for name, (var, unit, meaning) in SERIES.items():
        values = np.asarray(getattr(world, var))[::years_step]
        series[name] = {
            "variable": var,
            "unit": unit,
            "meaning": meaning,
            "values": [float(f"{v:.6g}") for v in values],
        }
    return series


def _peaks(world: Any) -> dict[str, Any]:
    import numpy as np

    time = np.asarray(world.time)
    found = {}
    for key, var in (("population_peak", "pop"), ("pollution_peak", "ppolx")):
        values = np.asarray(getattr(world, var))
        i = int(np.argmax(values))
        found[key] = {"year": float(time[i]), "value": float(f"{values[i]:.6g}")}
    return found


def scenario1_2004() -> tuple[dict[str, Any], dict[str, Any]]:
    """The 2004 update's scenario 1 with pydynamo-w: (years and series), provenance."""
    return scenario_2004(1)


def scenario_2004(number: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The 2004 update's scenario ``number`` with pydynamo-w: (years and series), provenance."""
    import types

    import numpy as np

    if not hasattr(np, "NAN"):  # pydynamo-w 0.0.2 predates numpy 2
        np.NAN = np.nan  # type: ignore[attr-defined]
    if "pyvis" not in sys.modules:  # imported for drawing graphs only
        pyvis, network = types.ModuleType("pyvis"), types.ModuleType("pyvis.network")
        network.Network = object  # type: ignore[attr-defined]
        pyvis.network = network  # type: ignore[attr-defined]
        sys.modules["pyvis"], sys.modules["pyvis.network"] = pyvis, network
    from pydynamo.world3 import World3, scenarios

    steps, dt = 401, 0.5
    world = World3(scenario_number=number)
    world.run(N=steps, dt=dt)
    years = [int(t) for t in np.asarray(world.time)[::2]]
    provenance = {
        "package": "pydynamo-w",
        "version": metadata.version("pydynamo-w"),
        "model": "World3-03 (pydynamo's 'WORLD3 2003 updated equations')",
        "scenario": scenarios[number - 1],
        "run": {"steps": steps, "dt": dt, "year_min": 1900},
        "shims": "numpy.NAN aliased to numpy.nan; pyvis (drawing only) stubbed",
        "cross_check": {
            "implementation": "PyWorld3-03 (github.com/TimSchell98/PyWorld3-03 at c19b495)",
            "landmarks": LANDMARKS_2004,
        }
        if number == 1
        else "none: the same pydynamo-w model as scenario 1, which matches PyWorld3-03",
        "landmarks": _peaks(world),
        "computed": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    return {"years": years, "series": _series(world, 2)}, provenance


def standard_run() -> tuple[dict[str, Any], dict[str, Any]]:
    """The 1972 standard run: (series by name, sampled once a year), provenance."""
    import numpy as np
    from pyworld3 import World3

    world = World3(**RUN)
    world.init_world3_constants()
    world.init_world3_variables()
    world.set_world3_table_functions()
    world.set_world3_delay_functions()
    world.run_world3(fast=False)
    time = np.asarray(world.time)
    step = round(1 / RUN["dt"])
    years = [int(t) for t in time[::step]]  # whole years: 0.5-year steps from 1900
    series = _series(world, step)
    found = _peaks(world)
    constants = {
        k: p.default
        for k, p in inspect.signature(World3.init_world3_constants).parameters.items()
        if k != "self"
    }
    provenance = {
        "package": "pyworld3",
        "version": metadata.version("pyworld3"),
        "model": "World3 (1972), as in Meadows et al., Dynamics of Growth in a Finite World (1974)",
        "run": dict(RUN),
        "constants": constants,
        "table_functions": "pyworld3's functions_table_world3.json (the package defaults)",
        "landmarks": found,
        "computed": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    return {"years": years, "series": series}, provenance


def check(provenance: dict[str, Any], landmarks: dict[str, Any]) -> list[str]:
    """The landmarks a run misses (empty when it reproduces them)."""
    problems = []
    for key, want in landmarks.items():
        got = provenance["landmarks"][key]
        off_year = abs(got["year"] - want["year"]) > want.get("years", 0.0)
        if off_year or abs(got["value"] / want["value"] - 1) > want["tolerance"]:
            problems.append(f"{key}: {got} instead of about {want['value']:g} in {want['year']:g}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=TARGET, help="the JSON file to write")
    parser.add_argument("--check", action="store_true", help="check the landmarks, write nothing")
    args = parser.parse_args(argv)
    table, provenance = standard_run()
    table04, provenance04 = scenario1_2004()
    problems = check(provenance, LANDMARKS) + check(provenance04, LANDMARKS_2004)
    for name, prov in (("1972 standard run", provenance), ("2004 scenario 1", provenance04)):
        for key, got in prov["landmarks"].items():
            print(f"{name}: {key}: {got['value']:g} in {got['year']:g}")
    if problems:
        print("the runs do not reproduce their landmarks:", *problems, sep="\n  ", file=sys.stderr)
        return 1
    if args.check:
        return 0
    document: dict[str, Any] = {
        "about": (
            "World3 reference runs for limit debrief; written by scripts/world3_reference.py, "
            "do not edit by hand"
        ),
        "runs": {
            "standard-1972": {
                "name": "1972 standard run",
                "computed": True,
                "provenance": provenance,
                **table,
            },
            "scenario1-2004": {
                **SCENARIO_2004,
                "computed": True,
                "provenance": provenance04,
                **table04,
            },
        },
    }
    for number, (name, where) in MORE_SCENARIOS_2004.items():
        table_n, provenance_n = scenario_2004(number)
        document["runs"][f"scenario{number}-2004"] = {
            "name": name,
            "model": "World3-03",
            "source": (
                "D. Meadows, J. Randers, D. Meadows, Limits to Growth: The 30-Year Update "
                f"(Chelsea Green, 2004), {where}; model World3-03"
            ),
            "computed": True,
            "provenance": provenance_n,
            **table_n,
        }
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
