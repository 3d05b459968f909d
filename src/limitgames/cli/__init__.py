"""The terminal app: ``limit`` and its commands (Typer and Rich)."""
