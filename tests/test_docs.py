"""The docs cannot drift: every command and every option of the CLI is described in docs/cli.md."""

import typer.main

from paperscope.cli import app

from .conftest import ROOT


def test_every_command_and_option_is_documented():
    reference = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    group = typer.main.get_command(app)
    missing = []
    for name, command in group.commands.items():
        if f"## {name}" not in reference:
            missing.append(f"command {name}")
        for param in command.params:
            for option in param.opts:
                if option.startswith("--") and option != "--help" and option not in reference:
                    missing.append(f"{name} {option}")
    assert not missing, f"not in docs/cli.md: {missing}"


def test_the_readme_starts_with_the_two_setup_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = readme.split("```")[1::2]
    assert "paperscope ingest ../shared/seeds" in blocks[0]
    assert blocks[1].strip() == "bash .ci/run"  # the README's test command is CI's script itself
    assert "pytest" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
