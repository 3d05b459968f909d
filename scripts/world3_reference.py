"""Compute the World3 reference runs that ``limit debrief`` draws beside a world game.

Run it once when the reference changes (it needs the ``pyworld3`` package, which the
game itself does not)::

    pip install pyworld3
    python scripts/world3_reference.py            # writes src/limitgames/world/world3_reference.json
    python scripts/world3_reference.py --check    # only checks the standard run's landmarks

The 1972 standard run is computed with pyworld3 (C. Vanwynsberghe's Python port of
World3 as described in Meadows et al., *Dynamics of Growth in a Finite World*, 1974),
with every constant at its default value, from 1900 to 2100 in steps of 0.5 year. The
script checks the run's landmarks before writing: world population peaks at about
7.06 billion in 2027 and the persistent pollution index at about 11 in 2034.

The 2004 update's scenario 1 (World3-03, *Limits to Growth: The 30-Year Update*,
chapter 4) is not computed: no package on PyPI runs World3-03, and its figures are
published only as charts. The data file records where they come from and that they
are absent, rather than numbers read off a chart.
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
        "(Chelsea Green, 2004), chapter 4, scenario 1 ('a reference point'); the model is "
        "World3-03, distributed by its authors as a Vensim model"
    ),
    "computed": False,
    "reason": (
        "no package on PyPI runs World3-03 (pyworld3 implements the 1972 model), and the book "
        "gives the scenario only as charts; numbers read off a chart are not shipped"
    ),
    "years": [],
    "series": {},
}


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
    series: dict[str, Any] = {}
    for name, (var, unit, meaning) in SERIES.items():
        values = np.asarray(getattr(world, var))[::step]
        series[name] = {
            "variable": var,
            "unit": unit,
            "meaning": meaning,
            "values": [float(f"{v:.6g}") for v in values],
        }
    found = {}
    for key, var in (("population_peak", "pop"), ("pollution_peak", "ppolx")):
        values = np.asarray(getattr(world, var))
        i = int(np.argmax(values))
        found[key] = {"year": float(time[i]), "value": float(f"{values[i]:.6g}")}
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


def check(provenance: dict[str, Any]) -> list[str]:
    """The landmarks the run misses (empty when it reproduces the standard run)."""
    problems = []
    for key, want in LANDMARKS.items():
        got = provenance["landmarks"][key]
        if got["year"] != want["year"] or abs(got["value"] / want["value"] - 1) > want["tolerance"]:
            problems.append(f"{key}: {got} instead of about {want['value']:g} in {want['year']:g}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=TARGET, help="the JSON file to write")
    parser.add_argument("--check", action="store_true", help="check the landmarks, write nothing")
    args = parser.parse_args(argv)
    table, provenance = standard_run()
    problems = check(provenance)
    for key, got in provenance["landmarks"].items():
        print(f"{key}: {got['value']:g} in {got['year']:g}")
    if problems:
        print(
            "the run does not reproduce the standard run:", *problems, sep="\n  ", file=sys.stderr
        )
        return 1
    if args.check:
        return 0
    document = {
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
            "scenario1-2004": SCENARIO_2004,
        },
    }
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
