"""``python -m limitgames.web``: the same as ``limit serve`` (see ``limitgames.cli.serve_cmd``)."""

import typer

from limitgames.cli.serve_cmd import serve

if __name__ == "__main__":
    typer.run(serve)
