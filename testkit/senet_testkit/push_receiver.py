"""A push service for tests: a small HTTP server on a loopback port that plays the part of the
service a browser subscribes with (FCM, Mozilla's, Apple's), and devices that decrypt what it
receives.

:class:`PushReceiver` takes the requests a site sends to a device's endpoint and keeps them
(:meth:`PushReceiver.next` waits for the next one); it answers 201, or what the test told it
for a device (410: the subscription is gone; a 307 to another address).  :class:`Device` is one browser's subscription:
its own P-256 key pair and 16-byte secret, and :meth:`Device.decrypt` reads a payload as a
browser does (RFC 8291 on the ``aes128gcm`` encoding of RFC 8188), written here from the RFCs
with the ``cryptography`` package — not with the library that encrypted it.
:func:`verify_vapid` checks a request's VAPID header (RFC 8292): the JWT's ES256 signature
against the site's public key, its audience and its expiry.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import queue
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = ["Delivery", "Device", "PushReceiver", "b64url", "unb64url", "verify_vapid"]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


@dataclass
class Device:
    """One browser's push subscription: where the push service takes its messages, and the
    keys a site encrypts them with."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def public_key(self) -> bytes:
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    def subscription(self) -> dict[str, Any]:
        """As a browser's ``PushSubscription.toJSON()`` writes it."""
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(self.public_key), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> bytes:
        """The plaintext of an ``aes128gcm`` body (RFC 8188 §2) encrypted for this device
        (RFC 8291 §3.3-3.4)."""
        salt, record_size, id_length = body[:16], struct.unpack(">I", body[16:20])[0], body[20]
        sender_key = body[21 : 21 + id_length]  # the site's ephemeral public key
        records = body[21 + id_length :]
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_key)
        shared = self.private_key.exchange(ec.ECDH(), sender)
        # RFC 8291 §3.3: the input keying material from the shared secret and the auth secret
        prk_key = _hmac(self.auth, shared)
        key_info = b"WebPush: info\x00" + self.public_key + sender_key
        ikm = _hmac(prk_key, key_info + b"\x01")
        # RFC 8188 §2.2-2.3: the content encryption key and the nonce
        prk = _hmac(salt, ikm)
        cek = _hmac(prk, b"Content-Encoding: aes128gcm\x00\x01")[:16]
        nonce = _hmac(prk, b"Content-Encoding: nonce\x00\x01")[:12]
        plain = b""
        for seq, start in enumerate(range(0, len(records), record_size)):
            iv = (int.from_bytes(nonce, "big") ^ seq).to_bytes(12, "big")
            record = AESGCM(cek).decrypt(iv, records[start : start + record_size], None)
            last = start + record_size >= len(records)
            stripped = record.rstrip(b"\x00")  # padding, then the delimiter
            if stripped[-1:] != (b"\x02" if last else b"\x01"):
                raise ValueError("a record without its delimiter")
            plain += stripped[:-1]
        return plain


@dataclass(frozen=True)
class Delivery:
    """One request a site sent to a device's endpoint."""

    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes


def verify_vapid(authorization: str, audience: str, public_key: str) -> dict[str, Any]:
    """The claims of a ``vapid t=JWT,k=KEY`` header, checked: ``k`` is the site's public key,
    the JWT is ES256-signed by it, for ``audience``, not expired and for at most 24 hours,
    with a contact.  Raises AssertionError or InvalidSignature."""
    scheme, _, params = authorization.partition(" ")
    assert scheme.lower() == "vapid", authorization
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == public_key, "signed with another key"
    head, claims_text, signature = parts["t"].split(".")
    header = json.loads(unb64url(head))
    assert header["alg"] == "ES256" and header.get("typ", "JWT") == "JWT", header
    raw = unb64url(signature)
    assert len(raw) == 64, "an ES256 signature is r and s, 32 bytes each"
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(der, f"{head}.{claims_text}".encode(), ec.ECDSA(hashes.SHA256()))
    claims: dict[str, Any] = json.loads(unb64url(claims_text))
    assert claims["aud"] == audience, claims
    assert time.time() < claims["exp"] <= time.time() + 86400, claims
    assert claims["sub"].startswith(("mailto:", "https://")), claims
    return claims


class PushReceiver:
    """A push service on ``http://127.0.0.1:PORT``: ``with PushReceiver() as receiver``."""

    def __init__(self) -> None:
        self._received: queue.Queue[Delivery] = queue.Queue()
        self._answers: dict[str, int] = {}
        self._redirects: dict[str, tuple[int, str]] = {}
        self.count = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                receiver.count += 1
                receiver._received.put(Delivery(self.path, headers, body))
                status = receiver._answers.get(self.path, 201)
                moved = receiver._redirects.get(self.path)
                if moved is not None:
                    status = moved[0]
                self.send_response(status)
                if moved is not None:
                    self.send_header("Location", moved[1])
                self.send_header("Content-Length", "0")
                self.end_headers()

            # any other method is taken and counted the same way (a redirect followed with
            # a GET is a request sent there too)
            do_GET = do_PUT = do_HEAD = do_POST

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> PushReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def device(self, name: str) -> Device:
        return Device(f"{self.origin}/push/{name}")

    def answer(self, device: Device, status: int) -> None:
        """Answer the requests to ``device``'s endpoint with ``status`` from now on."""
        self._answers[device.endpoint.removeprefix(self.origin)] = status

    def redirect(self, device: Device, location: str, status: int = 307) -> None:
        """Answer the requests to ``device``'s endpoint with ``status`` and ``Location:
        location`` from now on (a push service that tries to send the site elsewhere)."""
        self._redirects[device.endpoint.removeprefix(self.origin)] = (status, location)

    def next(self, timeout: float = 30.0) -> Delivery:
        """The next request received (waiting for it at most ``timeout`` seconds)."""
        return self._received.get(timeout=timeout)

    def pending(self) -> int:
        return self._received.qsize()
