"""A real local push service for the tests (issue 70): an HTTP endpoint that takes what a
server pushes, as a browser's push service would, checks the request's VAPID signature and
decrypts its aes128gcm payload with the subscription's private key (``http_ece``, which
pywebpush encrypts with), and a browser's subscription keys made with ``cryptography``."""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import http_ece  # type: ignore[import-untyped]
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """A browser's subscription: its P-256 key pair and auth secret (from ``seed``: the
    same keys every run), and the endpoint the server pushes to."""

    endpoint: str
    seed: int
    private: ec.EllipticCurvePrivateKey = field(init=False)
    auth: bytes = field(init=False)

    def __post_init__(self) -> None:
        digest = hashlib.sha256(f"push-{self.seed}".encode()).digest()
        secret = int.from_bytes(digest, "big") % (2**255) + 1
        self.private = ec.derive_private_key(secret, ec.SECP256R1())
        self.auth = digest[:16]

    def subscription(self) -> dict[str, Any]:
        """What ``pushManager.subscribe`` gives the page, as it posts it."""
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        """The payload of a push to this subscription, decrypted and read as JSON."""
        plain = http_ece.decrypt(
            body, private_key=self.private, auth_secret=self.auth, version="aes128gcm"
        )
        found: dict[str, Any] = json.loads(plain)
        return found


@dataclass(frozen=True)
class Push:
    """One request the service took: its path, headers and body, and the VAPID public
    key it was signed with (``None``: its signature did not verify)."""

    path: str
    headers: dict[str, str]
    body: bytes
    signed_by: str | None


def _signed_by(authorization: str) -> str | None:
    """The VAPID key (``k=``) that signed the JWT (``t=``) of ``vapid t=..., k=...``, if
    its ES256 signature verifies with it."""
    if not authorization.startswith("vapid "):
        return None
    parts = dict(p.strip().split("=", 1) for p in authorization[6:].split(","))
    token, key = parts.get("t", ""), parts.get("k", "")
    head, claims, signature = token.split(".")
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    try:
        public.verify(
            encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
            f"{head}.{claims}".encode(),
            ec.ECDSA(hashes.SHA256()),
        )
    except Exception:
        return None
    return key


class PushService:
    """The service's record of pushes, and the status each path answers (201 unless
    set in :attr:`answers`)."""

    def __init__(self) -> None:
        self.pushes: list[Push] = []
        self.answers: dict[str, int] = {}
        self.lock = threading.Lock()
        self.base = ""

    def to(self, path: str) -> list[Push]:
        """The pushes to ``path`` so far."""
        with self.lock:
            return [p for p in self.pushes if p.path == path]


@contextmanager
def push_service() -> Iterator[PushService]:
    """A push service listening on 127.0.0.1 (a port of its own), until the block ends."""
    service = PushService()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            push = Push(self.path, headers, body, _signed_by(headers.get("authorization", "")))
            with service.lock:
                service.pushes.append(push)
                status = service.answers.get(self.path, 201)
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
