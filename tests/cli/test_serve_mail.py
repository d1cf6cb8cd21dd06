"""``spacetable serve``'s e-mail options (issue 70; docs/notifications.md): ``--smtp``
refused in one line that never shows its password, before the server listens; the sender
and the links' address by default, from ``--public-url`` or the port served."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from spacetable.cli.serve import _mail_settings
from tests._cli import spacetable


def test_serve_refuses_an_smtp_url_in_one_line_without_its_password(tmp_path: Path) -> None:
    done = spacetable("serve", "--db", tmp_path / "m.db", "--smtp", "ftp://ann:s3cret@mail.example")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert (
        done.stderr
        == "spacetable: error: --smtp takes smtp://user:password@host:port (or smtps://...)\n"
    )
    assert "s3cret" not in done.stdout + done.stderr and "open http" not in done.stdout


def test_the_mail_settings_default_to_the_public_address() -> None:
    base = {"host": "0.0.0.0", "port": 8000, "mail_from": None, "public_url": None}
    assert _mail_settings(base | {"smtp": None}) is None
    local = _mail_settings(base | {"smtp": "smtp://ann:p%40ss@mail.example"})
    assert local is not None
    assert (local.smtp.host, local.smtp.port, local.smtp.password) == ("mail.example", 587, "p@ss")
    assert (local.public_url, local.sender) == (
        "http://localhost:8000",
        "spacetable <noreply@localhost>",
    )
    public = _mail_settings(
        base | {"smtp": "smtps://mail.example", "public_url": "https://play.example.org/"}
    )
    assert public is not None and public.smtp.tls and public.smtp.port == 465
    assert (public.public_url, public.sender) == (
        "https://play.example.org",
        "spacetable <noreply@play.example.org>",
    )
    with pytest.raises(typer.Exit):
        _mail_settings(base | {"smtp": "smtp://mail.example", "public_url": "play.example.org"})
