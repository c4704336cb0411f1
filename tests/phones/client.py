"""A plain HTTP client for the tests (what a phone, or someone else on the Wi-Fi, sends)."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from concurrent.futures import Future
from urllib.parse import urlsplit


def request(url: str, method: str = "GET", body: bytes | None = None, headers: dict | None = None,
            timeout: float = 20) -> tuple[int, dict, bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def get_json(url: str) -> tuple[int, dict]:
    status, _, body = request(url)
    return status, json.loads(body) if body.startswith(b"{") else {}


def post_json(url: str, payload) -> tuple[int, dict]:
    body = json.dumps(payload).encode()
    status, _, raw = request(url, "POST", body, {"Content-Type": "application/json"})
    return status, json.loads(raw) if raw.startswith(b"{") else {}


def post_photo(url: str, data: bytes, content_type: str = "image/jpeg") -> tuple[int, dict]:
    status, _, raw = request(url, "POST", data, {"Content-Type": content_type})
    return status, json.loads(raw) if raw.startswith(b"{") else {}


def in_thread(fn, *args) -> Future:
    """Run a blocking call beside the Qt loop (the laptop must keep running to answer it)."""
    future: Future = Future()

    def run():
        try:
            future.set_result(fn(*args))
        except BaseException as exc:
            future.set_exception(exc)
    threading.Thread(target=run, daemon=True).start()
    return future


def raw_socket(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    return s


def closed_by_server(s: socket.socket, wait: float = 5.0) -> bool:
    """Whether the server closed the connection (reads EOF or a reset within ``wait`` seconds)."""
    s.settimeout(wait)
    try:
        while True:
            data = s.recv(4096)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False
