"""Every number option of every ``spacetable`` command is range-checked: NaN, the
infinities and values out of range end the command at once with one line naming the
option and exit status 2, never a traceback nor a server on another port; and output that
cannot be written is one line too."""

from __future__ import annotations

import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from spacetable.cli import app, main
from tests._cli import HANG_S, ROOT, spacetable

FTL_TURN = ROOT / "examples" / "ftl-collision.json"


def _refused(done: subprocess.CompletedProcess[str], option: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert done.stderr.startswith(f"spacetable: error: {option}: "), done.stderr
    assert done.stderr.count("\n") == 1 and "is out of range: give a number" in done.stderr


@pytest.mark.parametrize("limit", ["inf", "nan", "1e308", "-1", "0"])
def test_resolve_refuses_a_time_limit_out_of_range(limit: str) -> None:
    _refused(spacetable("resolve", FTL_TURN, "--time-limit", limit), "--time-limit")


@pytest.mark.parametrize(
    ("option", "value"),
    [("--port", "99999"), ("--bot-pace", "nan"), ("--resolve-seconds", "inf")],
)
def test_serve_refuses_before_it_listens(option: str, value: str) -> None:
    done = spacetable("serve", option, value)
    _refused(done, option)
    assert "open http" not in done.stdout


def test_a_full_stdout_is_one_line_and_status_2() -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(
            [sys.executable, "-m", "spacetable", "resolve", str(FTL_TURN)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            cwd=ROOT,
            timeout=HANG_S,
        )
    assert done.returncode == 2
    assert done.stderr == "spacetable: error: cannot write the output: No space left on device\n"


def _number_options() -> list[tuple[str, str, type]]:
    """(command, option, int or float) for every number option of every command."""
    found = []
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    for name, listed in sorted(group.commands.items()):
        command = getattr(listed, "loaded", listed)  # a game's command: loaded on use
        for param in command.params:
            kind = param.type_descriptor.annotation  # type: ignore[union-attr]
            if kind in (int, float) and param.opts[0].startswith("--"):
                found.append((name, param.opts[0], kind))
    return found


NUMBER_OPTIONS = _number_options()


def test_the_commands_have_number_options_to_check() -> None:
    options = {(command, option) for command, option, _ in NUMBER_OPTIONS}
    assert {("serve", "--port"), ("serve", "--abandon-seconds"), ("races", "--pace")} <= options
    assert len(options) > 20


@pytest.mark.parametrize(("command", "option", "kind"), NUMBER_OPTIONS)
def test_every_number_option_is_range_checked(command: str, option: str, kind: type) -> None:
    # In process (the parse is the same as the real command's) so that all ~30 run fast;
    # a check that let a value through would run the command and fail the assertions.
    values = ["nan", "inf", "-inf", "1e308"] if kind is float else ["-1", "10" * 8]
    runner = CliRunner()
    required = ["--bot", "random", "--against", "random"] if command == "duels" else []
    for value in values:
        done = runner.invoke(app, [command, *required, option, value], env={"COLUMNS": "200"})
        assert done.exit_code == 2, (option, value, done.output)
        assert "Traceback" not in done.output and done.output.count("\n") == 1
        assert option.lstrip("-") in done.output, done.output


# -- what typer itself cannot parse ---------------------------------------------------


def _main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """``spacetable ARGS...`` run in this process through the console script's entry point
    (fast enough for every option): what it printed on stderr, once it exited with 2 and
    printed nothing on stdout."""
    monkeypatch.setattr(sys, "argv", ["spacetable", *args])
    with pytest.raises(SystemExit) as exited:
        main()
    out, err = capsys.readouterr()
    assert (exited.value.code, out) == (2, ""), (args, out, err)
    return err


@pytest.mark.parametrize(("command", "option", "kind"), NUMBER_OPTIONS)
def test_a_word_for_a_number_is_one_line_naming_the_option(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    option: str,
    kind: type,
) -> None:
    required = ["--bot", "random", "--against", "random"] if command == "duels" else []
    err = _main(monkeypatch, capsys, command, *required, option, "abc")
    assert err.startswith(f"spacetable: error: {option}: "), err
    assert err.count("\n") == 1 and "╭" not in err
    assert ("integer" if kind is int else "number") in err


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("serve", "--prot", "3"), "spacetable: error: No such option: --prot"),
        (("serve", "--port"), "spacetable: error: Option '--port' requires an argument."),
        (("resolve",), "spacetable: error: Missing argument 'table'."),
        (("fly",), "spacetable: error: No such command 'fly'."),
    ],
)
def test_every_parse_error_is_one_plain_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    line: str,
) -> None:
    err = _main(monkeypatch, capsys, *args)
    assert err.startswith(line) and err.count("\n") == 1, err


def test_serve_with_a_word_for_its_port_says_so_in_one_line() -> None:
    # The real command, as a user types it: typer drew a boxed panel here.
    done = spacetable("serve", "--port", "abc")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "spacetable: error: --port: input should be a valid integer, "
        "unable to parse string as an integer\n"
    )
