"""Issue 22, security: the phone server as someone else on the same Wi-Fi meets it.

Only a player's own secret opens anything, and only that player's page; every other path is 404;
guessing is slowed to a stop; request sizes, uploads, connections and idle time are bounded.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import cv2
import pytest

from engine.session import Session
from phones import PhoneQuestion, PlayerLinks, ReadSpec, player_snapshot
from phones.server import PhoneServer

from .client import closed_by_server, get_json, post_json, post_photo, raw_socket, request

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "phones"
LOOT = "carmen.loot.gandhis-glasses"


class Laptop:
    """The desktop's part, without Qt: answers are judged by a function the test sets."""

    def __init__(self, **limits) -> None:
        self.session = Session.new("carmen-cards", ["Ann", "Bob"])
        self.links = PlayerLinks(self.session.players)
        self.answers: list[tuple[str, dict]] = []
        self.server = PhoneServer(self.links, "carmen-cards", self.on_answer, **limits)
        self.server.start(["127.0.0.1"])
        for p in self.session.players:
            self.publish(p)

    def on_answer(self, player, payload, reply) -> None:
        self.answers.append((player, payload))
        reply({"ok": True, "message": "Noted in your journal."})

    def publish(self, player: str, question: PhoneQuestion | None = None) -> None:
        self.server.publish(player, player_snapshot(self.session, player, "full", question), question)
        time.sleep(0.05)

    def url(self, player: str, what: str = "") -> str:
        return self.server.url(player) + what


@pytest.fixture
def laptop():
    lap = Laptop()
    yield lap
    lap.server.stop()


def loot_question(player: str = "Ann") -> PhoneQuestion:
    session = Session.new("carmen-cards", ["Ann", "Bob"])
    loot = tuple((c.id, c.name) for c in session.rules.deck.of_kind("loot"))
    return PhoneQuestion.new(player, f"{player}, look at your Top Loot card", "", (ReadSpec("card", "your Top Loot card", loot),))


def photo_of(card: str, tag_px: float = 160, quality: int = 90) -> bytes:
    from vision.synthetic import SyntheticTable
    frame = SyntheticTable(seed=5).frame([card], tag_px=tag_px)
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return data.tobytes()


def test_each_link_opens_its_own_players_page_and_nothing_else(laptop):
    status, ann = get_json(laptop.url("Ann", "state"))
    assert status == 200 and ann["snapshot"]["player"] == "Ann"
    status, bob = get_json(laptop.url("Bob", "state"))
    assert status == 200 and bob["snapshot"]["journal"]["title"] == "Bob's Evidence Journal"
    assert "Ann's Evidence Journal" not in str(bob)
    status, _, page = request(laptop.url("Ann"))
    assert status == 200 and b"<script src=\"page.js\"" in page


@pytest.mark.parametrize("make_path", [
    lambda s, port: "/",
    lambda s, port: "/p/",
    lambda s, port: "/favicon.ico",
    lambda s, port: f"/p/{s[:-1]}/",                 # truncated
    lambda s, port: f"/p/{s}x/",                     # longer
    lambda s, port: f"/p/{s.upper()}/state",         # another case
    lambda s, port: f"/p/{s}/admin",
    lambda s, port: f"/p/{s}/../state",
    lambda s, port: f"/p/{s}",                       # no slash: not the page
    lambda s, port: f"/p/{'A' * len(s)}/state",
    lambda s, port: "/static/page.js",
])
def test_every_other_path_is_not_found_and_says_nothing(laptop, make_path):
    path = make_path(laptop.links.secret("Ann"), laptop.server.port)
    status, headers, body = request(f"http://127.0.0.1:{laptop.server.port}{path}")
    assert status == 404
    assert body == b"Not found"
    assert "aiohttp" not in str(headers).lower() and "python" not in str(headers).lower()


def test_a_wrong_method_is_not_found_either(laptop):
    status, _, body = request(laptop.url("Ann", "state"), "DELETE")
    assert status == 404 and body == b"Not found"
    status, _, body = request(laptop.url("Ann", "answer"), "GET")
    assert status == 404


def test_new_codes_close_every_old_link(laptop):
    old = laptop.url("Ann", "state")
    laptop.server.renew_links()
    time.sleep(0.1)
    status, reply = get_json(old)
    assert status == 410 and reply["message"] == "These codes were replaced: scan your new code."
    status, _, page = request(laptop.url("Ann").replace(laptop.links.secret("Ann"), old.split("/")[-2]))
    assert status == 410 and page == b"These codes were replaced: scan your new code."
    assert get_json(laptop.url("Ann", "state"))[0] == 200


def test_an_old_page_retrying_after_new_codes_never_locks_its_phone_out(laptop):
    """The old tab's retries are not guesses: the same phone's new link still opens (issue 27)."""
    old = laptop.url("Ann", "state")
    laptop.server.renew_links()
    for _ in range(3 * laptop.server.limiter.limit):
        assert request(old)[0] == 410
    assert get_json(laptop.url("Ann", "state"))[0] == 200


def test_new_codes_close_an_open_page_saying_its_link_was_replaced(laptop):
    import asyncio

    import aiohttp

    from phones.server import LINK_REPLACED

    async def open_then_new_codes() -> tuple[int | None, int]:
        url = laptop.url("Ann", "ws").replace("http://", "ws://")
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(url) as page:
                await page.receive(timeout=5)                         # the snapshot
                laptop.server.renew_links()
                while (await page.receive(timeout=5)).type != aiohttp.WSMsgType.CLOSE:
                    pass
                closed_with = page.close_code
            try:
                await session.ws_connect(url)
                again = 101
            except aiohttp.WSServerHandshakeError as refused:
                again = refused.status
        return closed_with, again
    assert asyncio.run(open_then_new_codes()) == (LINK_REPLACED, 410)


def test_guessing_secrets_turns_the_device_away(laptop):
    port = laptop.server.port
    for n in range(10):
        assert request(f"http://127.0.0.1:{port}/p/guess{n:04d}aaaaaaaaaaaaaaaaaaa/")[0] == 404
    # Now even the right link is refused to that device, with words, for a while.
    status, _, body = request(laptop.url("Ann", "state"))
    assert status == 429 and b"Too many wrong links" in body


def test_a_request_addressed_to_another_host_name_gets_nothing(laptop):
    """A web page elsewhere that points its own name at this computer (DNS rebinding) gets nothing."""
    status, _, body = request(laptop.url("Ann", "state"), headers={"Host": "evil.example:80"})
    assert status == 404 and b"Ann" not in body


def test_another_sites_page_can_neither_answer_nor_get_a_phone_turned_away(laptop):
    """Issue 27: a page on another site, open on a phone, that knows (or guesses) a link: its
    answers, photos and WebSockets are refused, and its wrong links never count against the phone."""
    import asyncio

    import aiohttp

    evil = {"Origin": "http://evil.example"}
    question = loot_question()
    laptop.publish("Ann", question)
    answer = json.dumps({"question": question.id, "answer": "abcdefgh1234", "cards": {"card": LOOT}}).encode()
    status, _, body = request(laptop.url("Ann", "answer"), "POST", answer, {"Content-Type": "application/json", **evil})
    assert status == 403 and b"Only the player's own page" in body and laptop.answers == []
    status, _, _ = request(laptop.url("Ann", f"photo?question={question.id}&field=card"), "POST", photo_of(LOOT),
                           {"Content-Type": "image/jpeg", **evil})
    assert status == 403

    async def socket_from(origin: str) -> int:
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(laptop.url("Ann", "ws").replace("http://", "ws://"), origin=origin):
                    return 101
            except aiohttp.WSServerHandshakeError as refused:
                return refused.status
    assert asyncio.run(socket_from("http://evil.example")) == 403
    assert asyncio.run(socket_from(f"http://127.0.0.1:{laptop.server.port}")) == 101    # the page's own

    port = laptop.server.port
    as_image = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}
    for n in range(3 * laptop.server.limiter.limit):
        wrong = f"http://127.0.0.1:{port}/p/guess{n:04d}aaaaaaaaaaaaaaaaaaa/state"
        assert request(wrong, headers=as_image if n % 2 else evil)[0] == 403
    assert get_json(laptop.url("Ann", "state"))[0] == 200, "the phone is not turned away"
    status, _ = post_json(laptop.url("Ann", "answer"), {"question": question.id, "answer": "abcdefgh1234",
                                                        "cards": {"card": LOOT}})
    assert status == 200 and len(laptop.answers) == 1                 # the player's own page still answers


def test_the_page_runs_no_inline_script_and_writes_no_markup(laptop):
    status, headers, page = request(laptop.url("Ann"))
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "default-src 'none'" in csp
    assert headers["Referrer-Policy"] == "no-referrer" and headers["Cache-Control"] == "no-store"
    html = page.decode()
    scripts = re.findall(r"<script[^>]*>(.*?)</script>", html, re.S)
    assert scripts == [""], "every script comes from a file, none is inline"
    assert not re.search(r"\son[a-z]+\s*=", html), "no inline event handlers"
    assert "http://" not in html and "https://" not in html, "nothing from another site (families play offline)"
    script = (ASSETS / "page.js").read_text(encoding="utf-8")
    for forbidden in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert forbidden not in script


SECURITY_HEADERS = ("Content-Security-Policy", "Referrer-Policy", "X-Content-Type-Options", "X-Frame-Options",
                    "Cache-Control")


def raw_exchange(port: int, sent: bytes) -> tuple[str, dict, bytes]:
    """What the server answers to exactly these bytes: (status line, headers, body)."""
    s = raw_socket(port)
    s.sendall(sent)
    answer = b""
    while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < content_length(answer):
        chunk = s.recv(65536)
        if not chunk:
            break
        answer += chunk
    s.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin1").split("\r\n")
    return lines[0], dict(line.split(": ", 1) for line in lines[1:]), body


def content_length(answer: bytes) -> int:
    found = re.search(rb"Content-Length: (\d+)", answer)
    return int(found.group(1)) if found else 0


def answers_to_every_kind_of_request(laptop) -> dict[str, tuple[str, dict, bytes]]:
    """One request of every kind the server answers, good and bad, as raw bytes."""
    port, secret = laptop.server.port, laptop.links.secret("Ann")
    host = f"Host: 127.0.0.1:{port}\r\n"
    deep = b"[" * 1500 + b"]" * 1500
    answer = json.dumps({"question": "q", "answer": "abcdefgh12345678"})
    laptop.server.on_answer = lambda player, payload, reply: reply({"ok": True, "secret": {}.__getitem__(secret)})
    cases = {
        "page": f"GET /p/{secret}/ HTTP/1.1\r\n{host}\r\n",
        "not found": f"GET /p/{secret[::-1]}/state HTTP/1.1\r\n{host}\r\n",
        "another site": f"POST /p/{secret}/answer HTTP/1.1\r\n{host}Origin: http://evil.example\r\n"
                        f"Content-Length: 2\r\n\r\n{{}}",
        "deep json": f"POST /p/{secret}/answer HTTP/1.1\r\n{host}Content-Type: application/json\r\n"
                     f"Content-Length: {len(deep)}\r\n\r\n{deep.decode()}",
        "handler failed": f"POST /p/{secret}/answer HTTP/1.1\r\n{host}Content-Type: application/json\r\n"
                          f"Content-Length: {len(answer)}\r\n\r\n{answer}",
        "line too long": f"GET /p/{secret}/state?{'A' * 5000} HTTP/1.1\r\n{host}\r\n",
        "header too long": f"GET /p/{secret}/state HTTP/1.1\r\n{host}Referer: /p/{secret}/{'A' * 5000}\r\n\r\n",
        "not http": f"GET /p/{secret}/ HTTP/9\r\n{host}\r\n",
        "no socket": f"GET /p/{secret}/ws HTTP/1.1\r\n{host}Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    }
    answers = {name: raw_exchange(port, sent.encode()) for name, sent in cases.items()}
    laptop.server.renew_links()
    answers["replaced"] = raw_exchange(port, f"GET /p/{secret}/state HTTP/1.1\r\n{host}\r\n".encode())
    return answers


def test_every_answer_errors_too_carries_the_same_headers_and_no_version(laptop):
    """Issue 27: aiohttp's own pages (a malformed request, a handler that failed) had the server's
    version, no security headers, and echoed the request line."""
    answers = answers_to_every_kind_of_request(laptop)
    assert {name: status.split(" ")[1] for name, (status, _, _) in answers.items()} == {
        "page": "200", "not found": "404", "another site": "403", "deep json": "400", "handler failed": "500",
        "line too long": "400", "header too long": "400", "not http": "400", "no socket": "400",
        "replaced": "410"}
    for name, (status, headers, body) in answers.items():
        assert all(h in headers for h in SECURITY_HEADERS), (name, headers)
        assert headers["Server"] == "Gumshoe", (name, headers)
        assert b"AAAA" not in body and b"/p/" not in body, (name, body)
    assert b"could not be read" in answers["deep json"][2]
    assert b"Something went wrong on the laptop" in answers["handler failed"][2]


def test_no_link_is_ever_written_to_the_log(laptop, caplog):
    """Issue 27: the log line of a malformed request held the request line, a player's link."""
    import logging

    secret = laptop.links.secret("Ann")
    with caplog.at_level(logging.DEBUG):
        answers_to_every_kind_of_request(laptop)
        time.sleep(0.2)
    assert any(r.levelno >= logging.ERROR for r in caplog.records), "the failed handler is logged"
    assert secret not in caplog.text
    assert all(secret not in r.getMessage() for r in caplog.records)


def test_names_with_markup_arrive_as_plain_text_in_the_data():
    session = Session.new("carmen-cards", ["<script>alert(1)", "Bob"])
    links = PlayerLinks(session.players)
    server = PhoneServer(links, "carmen-cards", lambda *a: None)
    server.start(["127.0.0.1"])
    try:
        player = session.players[0]
        server.publish(player, player_snapshot(session, player, "full"))
        time.sleep(0.05)
        status, state = get_json(server.url(player) + "state")
        assert state["snapshot"]["player"] == "<script>alert(1)"   # data; the page sets it as text
        status, headers, page = request(server.url(player))
        assert b"alert(1)" not in page                                   # the page itself never holds a name
    finally:
        server.stop()


def test_answers_are_bounded_and_must_be_well_formed(laptop):
    url = laptop.url("Ann", "answer")
    status, _, _ = request(url, "POST", b"x" * 20_000, {"Content-Type": "application/json"})
    assert status == 413
    assert request(url, "POST", b"{not json", {"Content-Type": "application/json"})[0] == 400
    assert post_json(url, {"question": "q", "cards": {}})[0] == 400          # no answer id
    assert post_json(url, {"question": "q", "answer": "short", "cards": {}})[0] == 400
    assert post_json(url, ["a", "list"])[0] == 400
    assert post_json(url, {"question": "q", "answer": "abcdefgh1234", "later": "yes"})[0] == 400
    assert laptop.answers == []                                              # none reached the game
    status, reply = post_json(url, {"question": "q", "answer": "abcdefgh1234", "cards": {}})
    assert status == 200 and laptop.answers == [("Ann", {"question": "q", "answer": ("Ann", "abcdefgh1234"),
                                                         "cards": {}, "confirm": None, "later": None})]


def test_a_photo_of_the_card_is_read_for_its_player_only(laptop):
    question = loot_question()
    laptop.publish("Ann", question)
    url = laptop.url("Ann", f"photo?question={question.id}&field=card")
    status, reply = post_photo(url, photo_of(LOOT))
    assert status == 200 and reply["ok"], reply
    assert reply["cards"] == [[LOOT, "Gandhi's Glasses", LOOT]]        # the card, its words, its line
    # Bob's link cannot send a photo for Ann's question (he has none open).
    status, reply = post_photo(laptop.url("Bob", f"photo?question={question.id}&field=card"), photo_of(LOOT))
    assert status == 409 and not reply["ok"]


def test_bad_photos_are_refused_in_words(laptop):
    question = loot_question()
    laptop.publish("Ann", question)
    url = laptop.url("Ann", f"photo?question={question.id}&field=card")
    good = photo_of(LOOT)
    status, reply = post_photo(url, good[: len(good) // 2])
    assert not reply["ok"] and "damaged or arrived only in part" in reply["message"]
    status, reply = post_photo(url, b"GIF89a" + b"\0" * 200)
    assert not reply["ok"] and "not a JPEG or PNG" in reply["message"]
    status, reply = post_photo(url, b"hello", "text/plain")
    assert status == 415 and "JPEG or PNG" in reply["message"]
    status, reply = post_photo(url, photo_of("carmen.location.arizona"))     # a Location card, not Loot
    assert not reply["ok"] and "cannot lie at your Top Loot card" in reply["message"]
    blank = cv2.imencode(".png", 255 * __import__("numpy").ones((300, 300), "uint8"))[1].tobytes()
    status, reply = post_photo(url, blank)
    assert not reply["ok"] and "No card tag could be read" in reply["message"]
    status, reply = post_photo(laptop.url("Ann", "photo?question=old&field=card"), good)
    assert status == 409


def test_an_oversized_photo_is_refused_before_it_is_read(laptop):
    question = loot_question()
    laptop.publish("Ann", question)
    s = raw_socket(laptop.server.port)
    s.sendall((f"POST {laptop.links.path('Ann')}photo?question={question.id}&field=card HTTP/1.1\r\n"
               f"Host: 127.0.0.1:{laptop.server.port}\r\nContent-Type: image/jpeg\r\n"
               f"Content-Length: {13 * 1024 * 1024}\r\n\r\n").encode())
    answer = s.recv(4096)
    s.close()
    assert answer.startswith(b"HTTP/1.1 413") and b"too large" in answer


def test_a_picture_claiming_a_huge_size_is_not_decoded():
    from phones.photos import decode_photo
    from phones.questions import AnswerRefused
    import struct, zlib
    # A PNG header that claims 40000 x 40000 pixels (1.6 gigapixels) in a few bytes.
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 40000, 40000, 8, 0, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b"")
    with pytest.raises(AnswerRefused, match="unusual size"):
        decode_photo(png)


def blank_png(width: int, height: int) -> bytes:
    """A real grey PNG of that size, all black: a few kilobytes however many pixels it holds."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    packer, row = zlib.compressobj(9), b"\0" * (width + 1)
    pixels = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", pixels) + chunk(b"IEND", b""))


@pytest.fixture
def decodes(monkeypatch) -> list[str]:
    """Each time Pillow decodes a picture's pixels (the header alone is not counted)."""
    from PIL import ImageFile
    counted: list[str] = []
    decode = ImageFile.ImageFile.load

    def counting(image):
        if image.tile:                                  # pixels still to decode (else: already done)
            counted.append(image.format)
        return decode(image)
    monkeypatch.setattr(ImageFile.ImageFile, "load", counting)
    return counted


def test_a_png_claiming_fifty_megapixels_is_refused_before_a_pixel_is_decoded(laptop, decodes):
    """Issue 27: a 0.05 MB PNG claiming 50 megapixels was decoded whole, twice (250 MB, 3-6 s)."""
    question = loot_question()
    laptop.publish("Ann", question)
    bomb = blank_png(7071, 7071)
    began = time.perf_counter()
    status, reply = post_photo(laptop.url("Ann", f"photo?question={question.id}&field=card"), bomb, "image/png")
    assert not reply["ok"] and "unusual size" in reply["message"]
    assert time.perf_counter() - began < 2.0 and decodes == []


def test_a_photo_is_decoded_once_even_when_read_twice(decodes):
    """No card in the small copy: the tags are read again on the photo already decoded."""
    from phones.photos import PhotoReader
    noise = __import__("numpy").random.default_rng(7).integers(0, 255, (2000, 3000), dtype="uint8")
    reading = PhotoReader("carmen-cards").read(cv2.imencode(".jpg", noise)[1].tobytes())
    assert reading.cards == [] and decodes == ["JPEG"]
    png = blank_png(4000, 3000)                         # a screenshot's size: decoded, once
    assert PhotoReader("carmen-cards").read(png).cards == [] and decodes == ["JPEG", "PNG"]


def test_silent_and_slow_connections_are_closed():
    lap = Laptop(idle_s=0.5)
    try:
        silent = raw_socket(lap.server.port)
        slow = raw_socket(lap.server.port)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: ")              # and then nothing more
        assert closed_by_server(silent, 5) and closed_by_server(slow, 5)
    finally:
        lap.server.stop()


def test_a_flood_of_connections_is_bounded_and_other_devices_still_get_in():
    lap = Laptop(max_per_address=4, max_connections=16, idle_s=30)
    try:
        flood = [raw_socket(lap.server.port, "127.0.0.1") for _ in range(10)]
        time.sleep(0.3)
        closed = [closed_by_server(s, 0.5) for s in flood]
        assert closed.count(False) == 4, "only four connections per device stay open"
        # Another device on the network (another source address) still gets its page.
        status, _, body = request_from(lap.url("Ann", "state"), "127.0.0.2")
        assert status == 200 and b"Ann" in body
        for s in flood:
            s.close()
    finally:
        lap.server.stop()


def test_a_player_gets_in_while_another_device_holds_every_connection():
    """Issue 27: a device with several addresses holding every slot (silent, or re-sending wrong
    paths) cannot keep a player out: a connection that never showed a current link makes room,
    and a player's open page is never the one closed."""
    import asyncio
    import json

    import aiohttp

    lap = Laptop(max_per_address=4, max_connections=8, idle_s=30)
    try:
        async def flood_around_ann() -> tuple[int, int, int]:
            connector = aiohttp.TCPConnector(local_addr=("127.0.0.10", 0))
            async with aiohttp.ClientSession(connector=connector) as ann:
                async with ann.ws_connect(lap.url("Ann", "ws").replace("http://", "ws://")) as page:
                    first = json.loads((await page.receive(timeout=5)).data)["version"]
                    held = [await asyncio.open_connection("127.0.0.1", lap.server.port,
                                                          local_addr=(f"127.0.0.{80 + n % 3}", 0)) for n in range(12)]
                    async with ann.get(lap.url("Ann", "state")) as reply:    # a new connection of Ann's
                        status = reply.status
                    lap.server.publish("Ann", player_snapshot(lap.session, "Ann", "full"))
                    newer = json.loads((await page.receive(timeout=5)).data)["version"]
                    for _, writer in held:
                        writer.close()
                    return status, first, newer
        status, first, newer = asyncio.run(flood_around_ann())
        assert status == 200, "Ann's page opens while the slots are held"
        assert newer == first + 1, "Ann's open page stays open and up to date"
    finally:
        lap.server.stop()


@pytest.mark.parametrize("path", ["/x", "/p/{guess}/state", "/favicon.ico"])
def test_a_refused_request_does_not_keep_its_connection_open(laptop, path):
    """Issue 27: a refused request is no activity; only a current link keeps a connection open."""
    host = f"127.0.0.1:{laptop.server.port}"
    refused = raw_socket(laptop.server.port)
    refused.sendall(f"GET {path.format(guess='A' * 32)} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    assert refused.recv(4096).startswith(b"HTTP/1.1 404")
    assert closed_by_server(refused, 2)
    player = raw_socket(laptop.server.port)
    player.sendall(f"GET {laptop.links.path('Ann')}state HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    assert player.recv(4096).startswith(b"HTTP/1.1 200")
    assert not closed_by_server(player, 0.5)
    player.close()


def request_from(url: str, source: str) -> tuple[int, dict, bytes]:
    import http.client
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()


def test_a_long_poll_answers_when_the_page_changes(laptop):
    from .client import in_thread
    status, first = get_json(laptop.url("Ann", "state"))
    waiting = in_thread(get_json, laptop.url("Ann", f"state?after={first['version']}"))
    time.sleep(0.3)
    assert not waiting.done()
    laptop.publish("Ann", loot_question())
    status, newer = waiting.result(timeout=5)
    assert newer["version"] == first["version"] + 1 and newer["snapshot"]["question"] is not None


def test_a_device_polling_in_a_tight_loop_is_slowed_to_a_pace():
    from phones.guard import RequestPacer
    lap = Laptop()
    lap.server.pacer = RequestPacer(rate=50, burst=5)
    try:
        began = time.perf_counter()
        for _ in range(30):
            assert request(lap.url("Ann", "state"))[0] == 200
        assert time.perf_counter() - began >= (30 - 5) / 50 * 0.9       # 25 requests over the burst, 50 a second
    finally:
        lap.server.stop()


def test_the_pacer_turns_away_what_would_wait_too_long():
    from phones.guard import RequestPacer
    now = [0.0]
    pacer = RequestPacer(rate=10, burst=2, max_wait_s=1.0, clock=lambda: now[0])
    waits = [pacer.delay("phone") for _ in range(14)]
    assert waits[:2] == [0.0, 0.0] and waits[2] == pytest.approx(0.1) and waits[11] == pytest.approx(1.0)
    assert waits[12] is None                       # over a second's wait: refused at once
    assert pacer.delay("another phone") == 0.0     # each device has its own pace
    now[0] = 10.0
    assert pacer.delay("phone") == 0.0             # after a pause, the burst is back


def test_each_page_says_how_many_devices_have_it_open(laptop):
    """A sibling who scanned Ann's code shows up on Ann's page (she can ask for new codes)."""
    import asyncio
    import json

    import aiohttp

    async def two_devices() -> tuple[int, int]:
        url = laptop.url("Ann", "ws").replace("http://", "ws://")
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(url) as first:
                alone = json.loads((await first.receive(timeout=5)).data)["devices"]
                async with session.ws_connect(url):
                    while True:
                        envelope = json.loads((await first.receive(timeout=5)).data)
                        if envelope["devices"] == 2:
                            return alone, 2
    assert asyncio.run(two_devices()) == (1, 2)
    status, bob = get_json(laptop.url("Bob", "state"))
    assert bob["devices"] == 0                      # Bob's page counts only Bob's devices
