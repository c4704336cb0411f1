"""The players' pages: a small aiohttp server on its own asyncio loop, in its own thread.

Every path is ``/p/<secret>/<what>``; an unknown secret, an unknown ``<what>`` or any other path
is 404, and too many wrong secrets from one device turn that device away (:mod:`phones.guard`).
A link replaced by "new codes" is 410 with words ("scan your new code"), never counted as a
guess: a page left open with it stops retrying (an open WebSocket is closed with
:data:`LINK_REPLACED`). A request another site's page made (its ``Origin`` or ``Sec-Fetch-Site``
says so) is 403 before its link is looked at, so it is never a guess either.

Every answer, errors included (aiohttp's own for a malformed request, a handler's failure),
carries the same security headers and ``Server: Gumshoe`` (no version), and nothing a request
sent (its line holds a link, a secret) is written to a log: there is no access log.

=========================  =======================================================================
``GET  /p/<secret>/``      the page (static HTML; its script and style beside it)
``GET  .../state?after=N`` the player's snapshot, at once if newer than version N, else when it
                           changes (a long poll of at most :data:`LONG_POLL_S` seconds)
``GET  .../ws``            a WebSocket: the snapshot now and after every change
``POST .../answer``        ``{"question", "answer", "cards", "confirm"}`` (or ``"later": true``: the look put off): handed to the desktop,
                           which applies it (once per answer key) and says how it went; the
                           desktop gets ``answer`` as the key ``(player, the page's answer id)``,
                           so one player's id never finds another player's reply
``POST .../photo``         ``?question=...&field=...``, the photo as the body: the cards it shows
                           that can answer that field (read here, in memory, never stored)
=========================  =======================================================================

The server never touches the game: the desktop publishes each player's snapshot
(:meth:`PhoneServer.publish`) and receives answers through ``on_answer`` (called on the server's
thread with a ``reply`` function that may be called from any thread).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import re
import threading
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from aiohttp import WSMsgType, web

from phones.guard import ConnectionGuard, GuessLimiter, RequestPacer
from phones.links import PlayerLinks
from phones.photos import MAX_PHOTO_BYTES, PhotoReader
from phones.questions import AnswerRefused, PhoneQuestion

#: longest wait of a long poll before it answers with the same snapshot
LONG_POLL_S = 25.0
#: how long a phone's answer may wait for the laptop (then: "try again", safe by the answer id)
ANSWER_WAIT_S = 15.0
#: the longest time a request body (a photo on slow Wi-Fi) may take to arrive
BODY_S = 60.0
MAX_ANSWER_BYTES = 16 * 1024
#: live pages per player (a reload, a second tab): the oldest is closed beyond this
MAX_SOCKETS_PER_PLAYER = 3
#: photos read at once (each holds up to 12 MB in memory); more are asked to try again
MAX_PHOTOS_AT_ONCE = 2
#: the WebSocket close code that tells a page its link was replaced (page.js stops retrying on it)
LINK_REPLACED = 4410
#: set on a request once its link is a player's current one
PLAYER_KEY = web.RequestKey("player", str)
REPLACED_WORDS = "These codes were replaced: scan your new code."
ASSETS = {"": ("page.html", "text/html"), "page.js": ("page.js", "application/javascript"),
          "page.css": ("page.css", "text/css")}
_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
_HOST = re.compile(r"[A-Za-z0-9.:\[\]-]{1,100}")

Answer = Callable[[str, dict, Callable[[dict], None]], None]
log = logging.getLogger(__name__)


def assets_folder() -> Path:
    from engine.paths import assets_dir
    return assets_dir() / "phones"


@dataclass
class _Board:
    """One player's newest snapshot and who is looking at it."""

    version: int = 0
    snapshot: bytes = b""
    question: PhoneQuestion | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    sockets: list = field(default_factory=list)
    joined: bool = False

    def envelope(self) -> bytes:
        """What a page receives: the version, how many devices have the page open (a page open
        on a device that is not the player's shows up), and the snapshot."""
        devices = sum(1 for ws in self.sockets if not ws.closed)
        return b'{"version":%d,"devices":%d,"snapshot":%s}' % (self.version, devices, self.snapshot or b"null")


class PhoneServer:
    def __init__(self, links: PlayerLinks, game: str, on_answer: Answer, *, assets: Path | None = None,
                 photo_reader: PhotoReader | None = None, on_join: Callable[[str], None] | None = None,
                 max_connections: int = 64, max_per_address: int = 12, idle_s: float = 10.0) -> None:
        """``on_join(player)``: called (on the server's thread) when a player first opens their
        page with the current link; the desktop then sends that player's snapshot."""
        self.links = links
        self.game = game
        self.on_answer = on_answer
        self.on_join = on_join
        folder = assets or assets_folder()
        self._files = {name: ((folder / file).read_bytes(), kind) for name, (file, kind) in ASSETS.items()}
        self.photo_reader = photo_reader or PhotoReader(game)
        self.limiter = GuessLimiter()
        self.pacer = RequestPacer()
        self._limits = (max_connections, max_per_address, idle_s)
        self.guard: ConnectionGuard | None = None
        self.hosts: list[str] = []
        self.port = 0
        self._boards: dict[str, _Board] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._servers: list[asyncio.AbstractServer] = []
        self._runner: web.AppRunner | None = None
        self._photos = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="phones-photo")
        self._photo_slots: asyncio.Semaphore | None = None
        self._sweeper: asyncio.Task | None = None

    # --- the desktop's side (any thread) ---------------------------------------------------
    def start(self, hosts: list[str], port: int = 0) -> int:
        """Listen on ``hosts`` (one port for all, chosen now when ``port`` is 0); returns the port.
        ``OSError`` when the address cannot be used."""
        if not hosts:
            raise OSError("This computer is on no home network, so the phones cannot reach it.")
        ready: concurrent.futures.Future = concurrent.futures.Future()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, args=(list(hosts), port, ready), name="phones-server",
                                        daemon=True)
        self._thread.start()
        self.port = ready.result(timeout=20)
        self.hosts = list(hosts)
        self._photos.submit(self.photo_reader.warm_up)
        return self.port

    def stop(self) -> None:
        """Close every page and stop listening (the game closed, or phones were switched off)."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(self._close(), loop).result(timeout=5)
            except (concurrent.futures.TimeoutError, RuntimeError):
                pass
            loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        self._photos.shutdown(wait=False, cancel_futures=True)
        self._loop = self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def url(self, player: str) -> str:
        """The player's link on the first (main) address: what the QR code holds."""
        host = self.hosts[0]
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}{self.links.path(player)}"

    def publish(self, player: str, snapshot: dict[str, Any], question: PhoneQuestion | None = None) -> None:
        """The player's new snapshot (built on the caller's thread from that player's own view)."""
        raw = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._store, player, raw, question)

    def renew_links(self) -> None:
        """New codes: every old link (and every page open with one) stops working."""
        self.links.renew()
        if self._loop is not None:
            # Queued before any publish that follows, so no old page is sent a newer snapshot.
            self._loop.call_soon_threadsafe(self._forget_links)

    def joined(self, player: str) -> bool:
        """Whether the player has opened their page since the links were made."""
        board = self._boards.get(player)
        return board is not None and board.joined

    def devices(self, player: str) -> int:
        board = self._boards.get(player)
        return 0 if board is None else sum(1 for ws in board.sockets if not ws.closed)

    # --- the server's thread ------------------------------------------------------------------
    def _run(self, hosts: list[str], port: int, ready: concurrent.futures.Future) -> None:
        loop = self._loop
        assert loop is not None
        asyncio.set_event_loop(loop)
        try:
            self.port = loop.run_until_complete(self._open(hosts, port))
        except BaseException as exc:      # the desktop gets it from start()
            ready.set_exception(exc if isinstance(exc, OSError) else OSError(str(exc)))
            loop.close()
            return
        ready.set_result(self.port)
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _open(self, hosts: list[str], port: int) -> int:
        self._photo_slots = asyncio.Semaphore(MAX_PHOTOS_AT_ONCE)
        for player in self.links.players:
            self._boards[player] = _Board()
        app = web.Application(client_max_size=MAX_PHOTO_BYTES + 1024, middlewares=[self._middleware])
        app.router.add_route("*", "/p/{secret}/{what:[a-z.]*}", self._dispatch)
        app.on_response_prepare.append(_add_headers)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        web_server, loop = self._runner.server, asyncio.get_running_loop()
        total, per_address, idle = self._limits
        # No access log (each line would hold a link, a secret); our own error answers.
        self.guard = ConnectionGuard(
            lambda: _PlainErrors(web_server, loop=loop, access_log=None, logger=log, max_field_size=4096,
                                 max_line_size=4096),
            max_total=total, max_per_address=per_address, idle_s=idle)
        for host in hosts:
            server = await loop.create_server(self.guard.factory, host, port, reuse_address=True)
            self._servers.append(server)
            port = port or server.sockets[0].getsockname()[1]
        self._sweeper = asyncio.ensure_future(self._sweep())
        return port

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            if self.guard is not None:
                self.guard.sweep()

    async def _close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for board in self._boards.values():
            for ws in list(board.sockets):
                await ws.close()
            board.changed.set()
        for server in self._servers:
            server.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self.guard is not None:
            for conn in list(self.guard.open.values()):
                if conn.transport is not None:
                    conn.transport.abort()

    def _store(self, player: str, raw: bytes, question: PhoneQuestion | None) -> None:
        board = self._boards.get(player)
        if board is None:
            return
        board.version += 1
        board.snapshot = raw
        board.question = question
        board.changed.set()
        board.changed = asyncio.Event()
        self._announce(board)

    async def _send(self, ws: web.WebSocketResponse, board: _Board) -> None:
        # A socket still busy with an older snapshot is skipped: the next send carries the newest.
        if ws.closed or getattr(ws, "_gumshoe_sending", False):
            ws._gumshoe_dirty = True  # type: ignore[attr-defined]
            return
        ws._gumshoe_sending = True  # type: ignore[attr-defined]
        try:
            while True:
                ws._gumshoe_dirty = False  # type: ignore[attr-defined]
                await asyncio.wait_for(ws.send_bytes(board.envelope()), timeout=10)
                if not getattr(ws, "_gumshoe_dirty", False) or ws.closed:
                    break
        except (ConnectionError, asyncio.TimeoutError, RuntimeError):
            await ws.close()
        finally:
            ws._gumshoe_sending = False  # type: ignore[attr-defined]

    def _forget_links(self) -> None:
        for board in self._boards.values():
            board.joined = False
            sockets, board.sockets = board.sockets, []
            for ws in sockets:
                asyncio.ensure_future(ws.close(code=LINK_REPLACED, message=b"replaced"))
            board.changed.set()
            board.changed = asyncio.Event()

    # --- requests --------------------------------------------------------------------------------
    @web.middleware
    async def _middleware(self, request: web.Request, handler) -> web.StreamResponse:
        guard = self.guard
        if guard is not None:
            guard.request_started(request.transport)
        useful = False
        try:
            address = request.remote or ""
            delay = self.pacer.delay(address)
            if delay:
                await asyncio.sleep(delay)
            if delay is None:
                response: web.StreamResponse = _refusal(429, "Too many requests from this device. Wait a moment.")
            elif self.limiter.blocked(address):
                response = _refusal(429, "Too many wrong links from this device. Wait a few minutes, then scan "
                                         "your own code again.")
            elif not self._host_ok(request.headers.get("Host", "")):
                response = _not_found()
            elif _from_another_site(request):
                response = _refusal(403, "Only the player's own page can send that.")
            else:
                try:
                    response = await handler(request)
                except web.HTTPException as exc:
                    if exc.status in (404, 405):
                        if request.path.startswith("/p/"):
                            self.limiter.missed(address)
                        response = _not_found()
                    elif exc.status == 413:
                        response = _refusal(413, "That is too large to send.")
                    else:
                        response = _refusal(exc.status, "That request could not be used.")
            useful = PLAYER_KEY in request
            if not useful and not response.prepared:
                # A refused request (a wrong link, 429...) never keeps its connection open.
                response.force_close()
            return response
        finally:
            if guard is not None:
                guard.request_finished(request.transport, useful)

    def _host_ok(self, host: str) -> bool:
        """Only requests addressed to this server's own address and port (a page elsewhere that
        points a name at this computer, DNS rebinding, gets nothing)."""
        if not _HOST.fullmatch(host):
            return False
        name, _, port = host.rpartition(":")
        return port == str(self.port) and name.strip("[]") in self.hosts

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        player = self.links.player_of(request.match_info["secret"])
        what = request.match_info["what"]
        if player is None:
            if self.links.replaced(request.match_info["secret"]):
                return _replaced(what)
            raise web.HTTPNotFound()
        request[PLAYER_KEY] = player
        if self.guard is not None:
            self.guard.vouch(request.transport)
        board = self._boards[player]
        if request.method == "GET" and not board.joined and (what in ASSETS or what in ("state", "ws")):
            board.joined = True
            if self.on_join is not None:
                self.on_join(player)
        if request.method == "GET" and what in ASSETS:
            body, kind = self._files[what]
            return web.Response(body=body, content_type=kind, charset="utf-8")
        if request.method == "GET" and what == "state":
            return await self._state(request, board, player)
        if request.method == "GET" and what == "ws":
            return await self._socket(request, board, player)
        if request.method == "POST" and what == "answer":
            return await self._answer(request, player)
        if request.method == "POST" and what == "photo":
            return await self._photo(request, board)
        raise web.HTTPNotFound()

    def _still_current(self, request: web.Request, player: str) -> bool:
        """Whether the request's link is still the player's (new codes may have come meanwhile)."""
        return self.links.player_of(request.match_info["secret"]) == player

    async def _state(self, request: web.Request, board: _Board, player: str) -> web.Response:
        try:
            after = int(request.query.get("after", "-1"))
        except ValueError:
            after = -1
        if board.version <= after:
            try:
                await asyncio.wait_for(board.changed.wait(), LONG_POLL_S)
            except asyncio.TimeoutError:
                pass
            if not self._still_current(request, player):
                return _replaced("state")
        return web.Response(body=board.envelope(), content_type="application/json")

    async def _socket(self, request: web.Request, board: _Board, player: str) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=1024, autoping=True)
        await ws.prepare(request)
        if not self._still_current(request, player):
            await ws.close(code=LINK_REPLACED, message=b"replaced")
            return ws
        board.sockets.append(ws)
        while len(board.sockets) > MAX_SOCKETS_PER_PLAYER:
            await board.sockets.pop(0).close()
        self._announce(board)          # every open page learns how many devices have it open
        try:
            async for message in ws:
                if message.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break          # the page sends nothing: anything else is ignored
        finally:
            if ws in board.sockets:
                board.sockets.remove(ws)
                self._announce(board)
        return ws

    def _announce(self, board: _Board) -> None:
        for ws in list(board.sockets):
            asyncio.ensure_future(self._send(ws, board))

    async def _answer(self, request: web.Request, player: str) -> web.Response:
        length = request.content_length
        if length is None or length > MAX_ANSWER_BYTES:
            return _refusal(413, "That answer is too large.")
        try:
            body = await asyncio.wait_for(request.read(), BODY_S)
            payload = json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError):    # RecursionError: nested too deep
            return _refusal(400, "That answer could not be read: reload the page and answer again.")
        except asyncio.TimeoutError:
            return _refusal(408, "The answer took too long to arrive. Try again.")
        if not (isinstance(payload, dict) and isinstance(payload.get("question"), str)
                and isinstance(payload.get("answer"), str) and _ID.fullmatch(payload["answer"])
                and isinstance(payload.get("confirm", False), bool) and isinstance(payload.get("later", False), bool)):
            return _refusal(400, "That answer could not be read: reload the page and answer again.")
        loop = asyncio.get_running_loop()
        done: asyncio.Future = loop.create_future()

        def reply(result: dict) -> None:
            loop.call_soon_threadsafe(lambda: done.done() or done.set_result(result))

        handed = {k: payload.get(k) for k in ("question", "cards", "confirm", "later")}
        handed["answer"] = (player, payload["answer"])     # remembered per player: ids come from the pages
        self.on_answer(player, handed, reply)
        try:
            result = await asyncio.wait_for(done, ANSWER_WAIT_S)
        except asyncio.TimeoutError:
            return _refusal(503, "The laptop did not answer in time. Try again.")
        return web.json_response(result)

    async def _photo(self, request: web.Request, board: _Board) -> web.Response:
        question, field_name = board.question, request.query.get("field", "")
        if question is None or request.query.get("question") != question.id:
            return _refusal(409, "There is no open question for this photo. Look at your page again.")
        try:
            question.read(field_name)
        except AnswerRefused as exc:
            return _refusal(400, exc.message)
        length = request.content_length
        if length is None:
            return _refusal(411, "The photo arrived without its size. Try again.")
        if length > MAX_PHOTO_BYTES:
            return _refusal(413, f"That photo is too large (at most {MAX_PHOTO_BYTES // (1024 * 1024)} MB).")
        if request.content_type not in ("image/jpeg", "image/png", "application/octet-stream"):
            return _refusal(415, "Only JPEG or PNG photos can be read. Take a photo with the phone's camera.")
        assert self._photo_slots is not None
        if self._photo_slots.locked():
            return _refusal(503, "Another photo is being read. Try again in a moment.")
        async with self._photo_slots:
            try:
                data = await asyncio.wait_for(request.read(), BODY_S)
            except asyncio.TimeoutError:
                return _refusal(408, "The photo took too long to arrive. Try again closer to the Wi-Fi.")
            if len(data) != length:
                return _refusal(400, "The photo arrived only in part. Take it again.")
            loop = asyncio.get_running_loop()
            try:
                reading = await loop.run_in_executor(self._photos, self.photo_reader.read, data)
                cards = question.cards_in_photo(field_name, reading.cards, reading.other_tags)
            except AnswerRefused as exc:
                return web.json_response({"ok": False, "message": exc.message})
            finally:
                del data
        read = question.read(field_name)
        names = dict(read.choices)
        # Each card read with its words and the line it is on (a line stands for every copy of a card).
        return web.json_response({"ok": True, "field": field_name,
                                  "cards": [[c, names[read.listed(c)], read.listed(c)] for c in cards]})


class _PlainErrors(web.RequestHandler):
    """aiohttp's connection handler, with our own answer where aiohttp would make its own page (a
    malformed request or a line over 4 KB, which reach no handler; a handler that failed): the same
    headers as every answer, no server version, nothing of the request echoed back, and a log line
    that holds nothing the sender sent (the request line holds a link, a secret)."""

    def handle_error(self, request: web.BaseRequest, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if request.writer.output_size > 0:         # as aiohttp does: part of an answer went out
            raise ConnectionError("Response is sent already, cannot send another response with the error message")
        # The kind of error and where it happened (file, line, code); never the error's own words.
        kind = type(exc).__name__ if exc is not None else "no exception"
        if status >= 500:
            where = "".join(traceback.format_tb(exc.__traceback__)) if exc is not None else ""
            log.error("A phone's request failed (%d, %s):\n%s", status, kind, where)
            words = "Something went wrong on the laptop. Reload the page and try again."
        else:
            log.info("A request that could not be read was refused (%d, %s)", status, kind)
            words = "That request could not be used."
        response = _refusal(status, words)
        _secure(response, request.headers.get("Host", ""))
        response.force_close()
        return response


async def _add_headers(request: web.Request, response: web.StreamResponse) -> None:
    _secure(response, request.headers.get("Host", ""))


def _refusal(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "message": message}, status=status)


def _from_another_site(request: web.Request) -> bool:
    """Whether a browser says another site's page made this request: an ``Origin`` (sent with
    every POST and WebSocket) that is not this server's own, or ``Sec-Fetch-Site`` naming another
    site, except for opening a page from a link (the player's own choice, one at a time). Without
    these headers (not a browser, or an old one) the request is taken as it comes."""
    headers = request.headers
    origin = headers.get("Origin")
    if origin is not None and origin != "http://" + headers.get("Host", ""):
        return True
    opens_page = headers.get("Sec-Fetch-Mode") == "navigate" and headers.get("Sec-Fetch-Dest") == "document"
    return headers.get("Sec-Fetch-Site") in ("cross-site", "same-site") and not opens_page


def _replaced(what: str) -> web.Response:
    """A link from before "new codes": said once, in words (the page stops retrying on 410)."""
    if what == "":
        return web.Response(status=410, text=REPLACED_WORDS, content_type="text/plain")
    return web.json_response({"ok": False, "replaced": True, "message": REPLACED_WORDS}, status=410)


def _not_found() -> web.Response:
    return web.Response(status=404, text="Not found", content_type="text/plain")


def _secure(response: web.StreamResponse, host: str) -> None:
    """Headers of every response: no script but our own file (never inline), nothing cached,
    no address (with its secret) passed on, never shown inside another page."""
    socket_source = f" ws://{host}" if _HOST.fullmatch(host) else ""
    response.headers["Content-Security-Policy"] = (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
        f"connect-src 'self'{socket_source}; form-action 'none'; frame-ancestors 'none'; base-uri 'none'")
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cache-Control"] = "no-store"
    response.headers["Server"] = "Gumshoe"
