"""Phones benchmark (issue 22): photo upload to journal update, and the table screen's stalls
while phones poll, over loopback, with the baselines beside them in the same run.

    .venv/bin/python benchmarks/phones_bench.py            # 40 uploads, 10 s of polling per part
    .venv/bin/python benchmarks/phones_bench.py --smoke    # 5 uploads, 2 s per part (CI-sized)
    .venv/bin/python benchmarks/phones_bench.py --libraries  # also: aiohttp vs Starlette+uvicorn

Runs offscreen (QT_QPA_PLATFORM=offscreen); saved games go to a temporary GUMSHOE_HOME.

Parts:
  1. Upload -> journal. A real game controller and the desktop's PhoneTable (server on loopback);
     Ann's page is open on a WebSocket (an aiohttp client in a thread of this process). Each round
     the shell's private read of Ann's Loot card is sent to her phone; the client then does what
     the page does: POST the photo (a 4032x3024 JPEG of about 3 MB with the tagged card, rendered
     by vision.synthetic), POST the answer with the card the photo gave, and waits for the
     WebSocket snapshot in which her journal knows the card. Timed: photo POST sent -> that
     snapshot received. The look is then undone for the next round. Baseline in the same run: the
     same photo read directly (decode + TagDetector, phones.photos.PhotoReader), no server, no Qt.
  2. Stalls. The table screen (MainWindow, a 4-player game) with a 5 ms precise QTimer recording
     the gaps between its ticks while the game moves on (a legal action from the game's simulator
     every 100 ms: each one republishes the joined players' pages) and eight clients in another
     process poll the four pages as fast as the server answers (two per player). Reported: the
     largest gap beyond the timer's 5 ms and the 99th percentile. Baseline in the same run: the
     same game and actions with the phones switched off and no clients.
  3. (--libraries) The measurement behind the choice of aiohttp (docs/phones.md): each server in
     its own thread, 300 GETs, 20 uploads of 3 MB, 300 WebSocket echoes; needs starlette, uvicorn
     and websockets installed (they are not dependencies).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GUMSHOE_HOME", tempfile.mkdtemp(prefix="gumshoe-phones-bench-"))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def three_megabyte_photo(card: str) -> bytes:
    """A phone-sized JPEG (4032x3024, about 3 MB) of the card held in front of the lens."""
    import cv2
    import numpy as np
    from vision.synthetic import SyntheticTable

    frame = SyntheticTable(seed=21).frame([card], tag_px=200)
    big = cv2.resize(frame, (4032, 3024), interpolation=cv2.INTER_CUBIC)
    noise = np.random.default_rng(1).normal(0, 7, big.shape)
    big = np.clip(big + noise, 0, 255).astype(np.uint8)
    for quality in (93, 90, 86, 82, 78, 72):
        data = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
        if len(data) <= 3.3 * 1024 * 1024:
            return data
    return data


def pump(app, until, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not until():
        if time.monotonic() > end:
            raise TimeoutError("the benchmark waited too long")
        app.processEvents()
        time.sleep(0.001)


# --- part 1 ------------------------------------------------------------------------------------
class PhoneClient(threading.Thread):
    """Ann's phone: a WebSocket for the page, HTTP for the photo and the answer."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.snapshots: list[tuple[float, dict]] = []
        self.ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.session = None

    def run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._main())

    async def _main(self) -> None:
        import aiohttp
        self.session = aiohttp.ClientSession()
        async with self.session.ws_connect(self.url.replace("http://", "ws://") + "ws") as ws:
            self.ready.set()
            async for message in ws:
                snapshot = json.loads(message.data)["snapshot"]
                if snapshot is not None:
                    self.snapshots.append((time.perf_counter(), snapshot))

    def round(self, photo: bytes, name: str) -> float:
        return asyncio.run_coroutine_threadsafe(self._round(photo, name), self.loop).result(60)

    async def _round(self, photo: bytes, name: str) -> float:
        while not (self.snapshots and self.snapshots[-1][1]["question"]):
            await asyncio.sleep(0.002)
        question = self.snapshots[-1][1]["question"]
        began = time.perf_counter()
        seen = len(self.snapshots)
        async with self.session.post(f"{self.url}photo?question={question['id']}&field=card", data=photo,
                                     headers={"Content-Type": "image/jpeg"}) as r:
            read = await r.json()
        assert read["ok"], read
        body = {"question": question["id"], "answer": os.urandom(8).hex(), "cards": {"card": read["cards"][0][0]}}
        async with self.session.post(self.url + "answer", json=body) as r:
            assert (await r.json())["ok"]
        while True:
            for stamp, snap in self.snapshots[seen:]:
                if any(e["name"] == name and e["known"] for g in snap["journal"]["groups"] for e in g["entries"]):
                    return stamp - began
            await asyncio.sleep(0.001)


def upload_to_journal(app, rounds: int) -> dict:
    from desktop.games import GameController
    from desktop.phones import PhoneTable, question_for_cards
    from engine.game import Assist
    from phones.photos import PhotoReader

    controller = GameController.new("carmen-cards", ["Ann", "Bob"], {"Ann": 9, "Bob": 10}, Assist.FULL)
    phones = PhoneTable(controller, hosts=["127.0.0.1"])
    assert phones.switch_on() is None
    client = PhoneClient(phones.url("Ann"))
    client.start()
    client.ready.wait(10)
    pump(app, lambda: phones.on_phone("Ann"))
    controller.apply({"type": "roll", "player": "Ann", "face": 1})
    option = next(o for o in controller.session.prompt().options if o.private)
    card_field, place_field = next(iter(option.reads.items()))
    place = str(option.targets[place_field][0])
    card = controller.deck.of_kind(controller.kind_at(place))[0]
    photo = three_megabyte_photo(card.id)
    times = []
    for _ in range(rounds):
        action = {"type": option.action, "player": "Ann", place_field: place}
        question, *_ = question_for_cards(controller, action, [(card_field, place)], "Ann, look", "", None)
        phones.ask(question, action)
        done: list[float] = []
        worker = threading.Thread(target=lambda: done.append(client.round(photo, card.name)), daemon=True)
        worker.start()
        pump(app, lambda: bool(done))
        times.append(done[0])
        controller.undo()
    reader = PhotoReader("carmen-cards")
    reader.warm_up()
    direct = []
    for _ in range(min(rounds, 10)):
        began = time.perf_counter()
        assert reader.read(photo).cards == [card.id]
        direct.append(time.perf_counter() - began)
    phones.switch_off()
    controller.close()
    return {"photo_bytes": len(photo), "rounds": rounds,
            "upload_to_journal_ms": {"median": 1000 * statistics.median(times), "p95": 1000 * percentile(times, 0.95)},
            "baseline_read_only_ms": {"median": 1000 * statistics.median(direct), "p95": 1000 * percentile(direct, 0.95)}}


# --- part 2 ------------------------------------------------------------------------------------
POLLERS = r"""
import sys, threading, time, urllib.request
urls, seconds = sys.argv[1].split(","), float(sys.argv[2])
counts = [0] * len(urls)
def poll(i):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            urllib.request.urlopen(urls[i] + "state", timeout=5).read()
            counts[i] += 1
        except Exception:
            time.sleep(0.01)
threads = [threading.Thread(target=poll, args=(i,)) for i in range(len(urls))]
[t.start() for t in threads]; [t.join() for t in threads]
print(sum(counts))
"""


def stalls(app, seconds: float, phones_on: bool) -> dict:
    from PySide6.QtCore import QTimer, Qt

    from desktop.games import GameController
    from desktop.main_window import MainWindow
    from engine.game import Assist

    window = MainWindow()
    window.phone_hosts = ["127.0.0.1"]
    window.show()
    players = ["Ann", "Bob", "Cyd", "Dee"]
    controller = GameController.new("carmen-cards", players, {p: 9 for p in players}, Assist.FULL)
    window._open(controller)
    pollers = None
    if phones_on:
        assert window.phones.switch_on() is None
        urls = [window.phones.url(p) for p in players] * 2
        pollers = subprocess.Popen([sys.executable, "-c", POLLERS, ",".join(urls), str(seconds)],
                                   stdout=subprocess.PIPE, text=True)
        pump(app, lambda: all(window.phones.on_phone(p) for p in players))
    sim = controller.session.rules.simulator(controller.session.initial, 7)
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setTimerType(Qt.PreciseTimer)
    timer.setInterval(5)
    timer.timeout.connect(tick)

    def move() -> None:
        if controller.session.outcome is None:
            try:
                controller.apply(sim.random_action(controller.session))
            except Exception:
                pass

    mover = QTimer()
    mover.setInterval(100)
    mover.timeout.connect(move)
    timer.start()
    mover.start()
    end = time.monotonic() + seconds
    pump(app, lambda: time.monotonic() > end, timeout=seconds + 30)
    timer.stop()
    mover.stop()
    requests = int(pollers.communicate(timeout=60)[0]) if pollers is not None else 0
    window.close()
    stall = [max(0.0, g - 0.005) for g in gaps[1:]]
    return {"phones": phones_on, "seconds": seconds, "client_requests": requests,
            "largest_stall_ms": 1000 * max(stall), "p99_stall_ms": 1000 * percentile(stall, 0.99),
            "actions": len(controller.session.done)}


# --- part 3 ------------------------------------------------------------------------------------
def libraries() -> list[dict]:
    import importlib.util
    if not all(importlib.util.find_spec(m) for m in ("starlette", "uvicorn", "websockets")):
        print("(--libraries: starlette, uvicorn and websockets are not installed; skipped)")
        return []
    return [json.loads(subprocess.run([sys.executable, __file__, "--one-library", name], capture_output=True,
                                      text=True, check=True).stdout.strip().splitlines()[-1])
            for name in ("aiohttp", "starlette") for _ in range(2)]


def one_library(which: str) -> None:
    import socket
    import urllib.request

    body = os.urandom(3 * 1024 * 1024)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ready = threading.Event()
    began = time.perf_counter()
    if which == "aiohttp":
        from aiohttp import web
        imported = time.perf_counter() - began

        def serve() -> None:
            async def page(request): return web.Response(text="hello")
            async def upload(request): return web.Response(text=str(len(await request.read())))
            async def echo(request):
                ws = web.WebSocketResponse()
                await ws.prepare(request)
                async for m in ws:
                    await ws.send_str(m.data)
                return ws
            app = web.Application(client_max_size=16 * 1024 * 1024)
            app.add_routes([web.get("/p", page), web.post("/u", upload), web.get("/ws", echo)])
            loop = asyncio.new_event_loop()
            runner = web.AppRunner(app, handle_signals=False)
            loop.run_until_complete(runner.setup())
            loop.run_until_complete(web.TCPSite(runner, "127.0.0.1", port).start())
            ready.set()
            loop.run_forever()
    else:
        import uvicorn
        from starlette.applications import Starlette
        from starlette.responses import PlainTextResponse
        from starlette.routing import Route, WebSocketRoute
        imported = time.perf_counter() - began

        def serve() -> None:
            async def page(request): return PlainTextResponse("hello")
            async def upload(request): return PlainTextResponse(str(len(await request.body())))
            async def echo(ws):
                await ws.accept()
                try:
                    while True:
                        await ws.send_text(await ws.receive_text())
                except Exception:
                    pass
            app = Starlette(routes=[Route("/p", page), Route("/u", upload, methods=["POST"]), WebSocketRoute("/ws", echo)])
            server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
            threading.Thread(target=lambda: (time.sleep(0.5), ready.set()), daemon=True).start()
            server.run()
    threading.Thread(target=serve, daemon=True).start()
    ready.wait(10)
    time.sleep(0.3)
    base = f"http://127.0.0.1:{port}"
    gets, uploads = [], []
    for _ in range(300):
        t0 = time.perf_counter()
        urllib.request.urlopen(base + "/p").read()
        gets.append(time.perf_counter() - t0)
    for _ in range(20):
        t0 = time.perf_counter()
        urllib.request.urlopen(urllib.request.Request(base + "/u", data=body, method="POST")).read()
        uploads.append(time.perf_counter() - t0)

    async def echoes() -> list[float]:
        import aiohttp
        out = []
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(base.replace("http", "ws") + "/ws") as ws:
                for _ in range(300):
                    t0 = time.perf_counter()
                    await ws.send_str("x" * 200)
                    await ws.receive()
                    out.append(time.perf_counter() - t0)
        return out
    ws_times = asyncio.run(echoes())
    ms = lambda xs, p: round(1000 * percentile(xs, p), 2)   # noqa: E731
    print(json.dumps({"server": which, "import_ms": round(1000 * imported), "get_median_ms": ms(gets, 0.5),
                      "get_p95_ms": ms(gets, 0.95), "upload_3MB_median_ms": ms(uploads, 0.5),
                      "upload_3MB_p95_ms": ms(uploads, 0.95), "ws_echo_median_ms": ms(ws_times, 0.5),
                      "ws_echo_p95_ms": ms(ws_times, 0.95)}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a few rounds only (a check that it runs)")
    parser.add_argument("--libraries", action="store_true", help="also compare aiohttp with Starlette+uvicorn")
    parser.add_argument("--one-library", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one_library:
        one_library(args.one_library)
        return 0
    from PySide6.QtWidgets import QApplication
    from desktop.style import apply_style
    app = QApplication.instance() or QApplication([])
    apply_style(app)
    rounds, seconds = (5, 2.0) if args.smoke else (40, 10.0)
    results = {"upload": upload_to_journal(app, rounds),
               "stalls_phones_off": stalls(app, seconds, phones_on=False),
               "stalls_phones_on": stalls(app, seconds, phones_on=True)}
    if args.libraries:
        results["libraries"] = libraries()
    up = results["upload"]
    print(f"photo {up['photo_bytes'] / 1e6:.1f} MB, {up['rounds']} rounds over loopback")
    print(f"  upload -> journal on the phone: median {up['upload_to_journal_ms']['median']:.0f} ms, "
          f"p95 {up['upload_to_journal_ms']['p95']:.0f} ms (target p95 < 500 ms)")
    print(f"  baseline, the photo read alone: median {up['baseline_read_only_ms']['median']:.0f} ms, "
          f"p95 {up['baseline_read_only_ms']['p95']:.0f} ms")
    for key in ("stalls_phones_off", "stalls_phones_on"):
        s = results[key]
        print(f"table screen, phones {'on, 8 clients polling' if s['phones'] else 'off (baseline)'}: largest stall "
              f"{s['largest_stall_ms']:.1f} ms, p99 {s['p99_stall_ms']:.1f} ms ({s['actions']} actions, "
              f"{s['client_requests']} client requests in {s['seconds']:.0f} s; target < 50 ms)")
    for row in results.get("libraries", []):
        print("  " + json.dumps(row))
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
