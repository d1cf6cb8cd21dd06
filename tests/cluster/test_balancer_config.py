"""The shipped HAProxy configuration (deploy/haproxy.cfg) is the template's, and HAProxy
accepts it."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from spacetable.server.cluster.balancer import haproxy_config
from tests._server import ROOT

SHIPPED = ROOT / "deploy" / "haproxy.cfg"


def test_the_shipped_configuration_is_the_template_for_two_processes() -> None:
    expected = haproxy_config(":8000", ["127.0.0.1:8001", "127.0.0.1:8002"])
    assert SHIPPED.read_text(encoding="utf-8") == expected, (
        "deploy/haproxy.cfg differs from src/spacetable/server/cluster/haproxy.cfg.in: "
        "write it again with haproxy_config(':8000', ['127.0.0.1:8001', '127.0.0.1:8002'])"
    )


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="needs Debian's haproxy")
def test_haproxy_accepts_the_shipped_configuration() -> None:
    checked = subprocess.run(
        ["haproxy", "-c", "-f", str(SHIPPED)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # Room sockets by the hash of their path, the rest round robin, checked every 500 ms.
    text = SHIPPED.read_text(encoding="utf-8")
    for line in (
        "balance uri",
        "hash-type consistent",
        "balance roundrobin",
        "inter 500",
        "timeout check 2s",
    ):
        assert line in text
