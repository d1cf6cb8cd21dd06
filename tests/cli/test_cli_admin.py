"""``spacetable admin grant NAME`` and ``revoke NAME`` (issue 69 item 5) as an operator runs
them on the server's database: the account is a moderator (its ``/admin`` answers), the
audit log says the console did it, an unknown name fails in one line."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from spacetable.server.app import create_app
from spacetable.server.store.accounts import password_hasher
from spacetable.server.store.storage import Storage
from tests._cli import spacetable


def test_admin_grant_makes_a_moderator_and_revoke_takes_it_back(tmp_path: Path) -> None:
    db = tmp_path / "server.db"
    storage = Storage(str(db))
    try:
        client = TestClient(
            create_app(storage, password_hasher=password_hasher(cheap=True)),
            base_url="http://127.0.0.1",
        )
        made = client.post("/api/accounts", json={"name": "Mira", "password": "12345678"})
        assert made.status_code == 201
        assert client.get("/api/admin/reports").status_code == 403
        granted = spacetable("admin", "grant", "mira", "--db", db)
        assert granted.returncode == 0, granted.stderr
        assert granted.stdout.strip() == "Mira is a moderator now: /admin"
        assert client.get("/api/admin/reports").status_code == 200
        again = spacetable("admin", "grant", "Mira", "--db", db)
        assert again.stdout.strip() == "Mira was a moderator already"
        audit = client.get("/api/admin/audit").json()["audit"]
        assert [(e["actor"], e["action"], e["target"]) for e in audit] == [
            ("console", "grant", "Mira")
        ]
        revoked = spacetable("admin", "revoke", "Mira", "--db", db)
        assert revoked.returncode == 0, revoked.stderr
        assert client.get("/api/admin/reports").status_code == 403
        unknown = spacetable("admin", "grant", "Nobody", "--db", db)
        assert unknown.returncode == 2
        assert unknown.stdout == ""
        assert "no account is called 'Nobody'" in unknown.stderr
    finally:
        storage.close()
