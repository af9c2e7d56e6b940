#!/usr/bin/env python3
"""The browser client (clients/js/statehouse.js) in a real headless Chromium against the real server.

    .venv/bin/python Tests/Browser/browser_tests.py --binary .build/debug/statehouse [--only NAME ...]

Each test starts its own `statehouse serve` (127.0.0.1, port 0, a temporary configuration; a durable SQLite store
where it needs one), and pages come from a second small HTTP server on another port (the *page origin*, listed in the
configuration's `cors`), so every request the client makes is cross-origin, as on a real site. Pages load the module
from `http://127.0.0.1:<server port>/client/statehouse.js`. Where the network must fail, the client talks to the
server through Tests/Support/chaos_proxy.py.

The inspector tests load `/inspector` from the server itself (same origin, no `cors`), as an operator would.

The screenshots (docs/images/todo-example.png, docs/images/inspector.png) are rewritten only with SCREENSHOT=1
(otherwise they go to a temporary file), so `make test` leaves the tree clean.

Prints one line per test ("ok"/"FAIL" and its time), then "browser tests: N passed, M failed" (scripts/test-summary
adds it to `make test`'s count); exits 1 if any failed. Every test has a time limit (TEST_LIMITS_S).
"""

import argparse
import asyncio
import functools
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
sys.path.insert(0, str(ROOT / "Tests" / "Soak"))
sys.path.insert(0, str(ROOT / "Tests" / "Cluster"))

from cdp import Browser, BrowserError  # noqa: E402
from chaos_control import ProxyProcess  # noqa: E402
from soak_support import Server  # noqa: E402
from redis_support import RedisServer  # noqa: E402

CLIENT_JS = ROOT / "clients" / "js" / "statehouse.js"
EXAMPLE = ROOT / "examples" / "todo"
SCREENSHOT = ROOT / "docs" / "images" / "todo-example.png"
INSPECTOR_SCREENSHOT = ROOT / "docs" / "images" / "inspector.png"

TEST_LIMITS_S = {"live_sync": 30, "restart_resumes_with_a_patch": 45, "cut_during_send": 30,
                 "cors_refused_origin": 30, "sse_fallback": 30, "chaos": 100, "todo_example": 30,
                 "inspector": 40, "inspector_with_auth": 30,
                 "inspector_cluster": 40}


class Failure(Exception):
    """A check of a test did not hold."""


def expect(condition, message):
    if not condition:
        raise Failure(message)


# ---------------------------------------------------------------------------------------------------------------
# The page origin: a tiny static server on its own port.

BLANK_PAGE = b'<!doctype html><meta charset=utf-8><link rel=icon href="data:,"><title>statehouse test</title>'


class Origin:
    """Serves test pages on http://127.0.0.1:<port>: `/blank.html`, `/client/statehouse.js` (a copy, for the page that
    the server's CORS refuses) and `/todo/…` (examples/todo as it is; the test names the server with `?server=`)."""

    def __init__(self, client_js):
        origin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body, kind = origin.body(self.path.split("?", 1)[0])
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.client_js = client_js
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def body(self, path):
        if path == "/blank.html":
            return BLANK_PAGE, "text/html; charset=utf-8"
        if path == "/client/statehouse.js":
            return self.client_js.read_bytes(), "text/javascript; charset=utf-8"
        if path.startswith("/todo/"):
            file = (EXAMPLE / path[len("/todo/"):]).resolve()
            if EXAMPLE.resolve() not in file.parents or not file.is_file():
                return None, None
            text = file.read_bytes()
            kind = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}.get(file.suffix, "text/plain")
            return text, kind + "; charset=utf-8"
        return None, None

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


# ---------------------------------------------------------------------------------------------------------------
# The server and plain HTTP reads of it

def config(origins, stores=None, storage=None, auth=None):
    """`origins` None: no `cors` section (pages from the server itself)."""
    result = {
        "listen": {"host": "127.0.0.1", "port": 0},
        "stores": stores or [{"name": "counter", "reducer": "Counter"}, {"name": "todos", "reducer": "TodoList"}],
    }
    if origins is not None:
        result["cors"] = {"allowedOrigins": origins}
    if storage:
        result["storage"] = storage
    if auth:
        result["auth"] = auth
    return result


def read_store(port, name):
    """GET /stores/{name} without an Origin (as curl): the body as JSON."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/stores/{name}", timeout=10) as response:
        return json.load(response)


def post_action(port, name, action):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/stores/{name}/actions", method="POST",
                                     data=json.dumps(action).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


async def poll(condition, timeout_s, what):
    """Calls `condition()` (plain Python) until truthy; Failure naming `what` past the deadline."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout_s} s waiting for {what} (last value: {value!r})")
        await asyncio.sleep(0.05)


# ---------------------------------------------------------------------------------------------------------------
# What every page gets: the module, and a recorder of what a store showed.

PAGE_HELPERS = """
(async (moduleURL) => {
  const module = await import(moduleURL);
  window.T = {
    module,
    // Subscribes and records every call: versions, whether it came as a patch, and how often a version went back
    // within an epoch (must stay 0).
    track(store) {
      const record = { calls: [], backwards: 0, last: null };
      store.subscribe((state, info) => {
        const last = record.last;
        if (last && info.epoch === last.epoch && info.version <= last.version) record.backwards += 1;
        record.calls.push({ version: info.version, epoch: info.epoch, patch: info.patch !== undefined });
        record.last = { version: info.version, epoch: info.epoch };
      });
      return record;
    },
    statuses(client) {
      const seen = [client.status];
      client.onStatus((status) => seen.push(status));
      return seen;
    },
  };
  return Object.keys(module).sort();
})
"""


class Context:
    """What one test has: the browser, the page origins, the server(s), the proxy; all closed by `close()`."""

    def __init__(self, browser, options):
        self.browser = browser
        self.options = options
        self.allowed = Origin(options.module_source)
        self.refused = Origin(options.module_source)
        self.servers = []
        self.proxy = None
        self.redis = None

    def server(self, cors=True, **settings):
        server = Server(self.options.binary, config([self.allowed.url] if cors else None, **settings)).start()
        self.servers.append(server)
        return server

    def start_proxy(self, upstream):
        self.proxy = ProxyProcess(upstream)
        return self.proxy

    def module_url(self, base, origin=None):
        if self.options.module_from_origin:
            return (origin or self.allowed).url + "/client/statehouse.js"
        return base + "/client/statehouse.js"

    async def page(self, base, origin=None):
        """A blank page of `origin` (default: the allowed one) with the module of `base` imported as `T.module`."""
        origin = origin or self.allowed
        page = await self.browser.new_page(origin.url + "/blank.html")
        exports = await page.evaluate(f"{PAGE_HELPERS}({json.dumps(self.module_url(base, origin))})")
        expect("connect" in exports, f"the module exports connect (it exports {exports})")
        return page

    def start_redis(self):
        """A redis-server of the test's own on a free loopback port (files in a temporary directory)."""
        self.redis = RedisServer(tempfile.mkdtemp(prefix="statehouse-browser-redis-"))
        self.redis.start()
        return self.redis

    def close(self):
        if self.redis is not None:
            self.redis.kill()
            shutil.rmtree(self.redis.directory, ignore_errors=True)
        if self.proxy is not None:
            self.proxy.stop()
        for server in self.servers:
            server.kill()
            shutil.rmtree(server.directory, ignore_errors=True)
        self.allowed.close()
        self.refused.close()


def base_of(port):
    return f"http://127.0.0.1:{port}"


async def check_pages(*pages):
    for page in pages:
        page.raise_if_failed()


# ---------------------------------------------------------------------------------------------------------------
# The tests

async def live_sync(context):
    """Two pages on one store: a send in page A appears in page B (B watches a projection, `path: '/items'`)."""
    server = context.server()
    base = base_of(server.port)
    a, b = await context.page(base), await context.page(base)
    await a.evaluate(f"window.client = T.module.connect({json.dumps(base)}); window.todos = client.store('todos');"
                     "window.record = T.track(todos); 0")
    await b.evaluate(f"window.client = T.module.connect({json.dumps(base)});"
                     "window.items = client.store('todos', { path: '/items', format: 'patch' });"
                     "window.record = T.track(items); 0")
    await a.wait_for("todos.state !== undefined && client.status === 'live'", 10, "page A's first snapshot")
    await b.wait_for("Array.isArray(items.state) && client.status === 'live'", 10, "page B's first snapshot")
    sent = await a.evaluate("todos.send({ type: 'add', payload: { text: 'milk' } })")
    expect(sent["version"] == 1 and not sent.get("replayed"), f"send resolves with version 1, not replayed: {sent}")
    await b.wait_for("items.state.some((item) => item.text === 'milk')", 10, "page B to show page A's item")
    await a.evaluate("todos.send({ type: 'add', payload: { text: 'eggs' } })")
    texts = await b.wait_for("items.state.length === 2 && items.state.map((item) => item.text)", 10,
                             "page B to show the second item")
    expect(texts == ["milk", "eggs"], f"page B shows both items in order: {texts}")
    record = await b.evaluate("record")
    expect(record["backwards"] == 0, f"page B never saw a version go back: {record}")
    expect(await b.evaluate("items.version") == 2, "page B is at version 2")
    state = read_store(server.port, "todos")["state"]
    expect([item["text"] for item in state["items"]] == ["milk", "eggs"], f"the server holds both items: {state}")
    await check_pages(a, b)


async def restart_resumes_with_a_patch(context):
    """The server stops mid-session and starts again (durable store: same epoch) behind the proxy's stable address:
    the page resumes with one patch, not a snapshot; an action sent while offline goes out once live."""
    directory = tempfile.mkdtemp(prefix="statehouse-browser-")
    storage = {"path": os.path.join(directory, "stores.sqlite"), "sync": "commit"}
    try:
        server = context.server(storage=storage)
        proxy = context.start_proxy(server.port)
        base = base_of(proxy.port)
        page = await context.page(base)
        await page.evaluate(f"window.client = T.module.connect({json.dumps(base)}, "
                            "{ backoff: { initialMs: 50, maxMs: 400 } });"
                            "window.statuses = T.statuses(client); window.counter = client.store('counter');"
                            "window.record = T.track(counter); 0")
        await page.wait_for("client.status === 'live' && counter.version === 0", 10, "the first snapshot")
        for _ in range(3):
            await page.evaluate("counter.send({ type: 'increment' })")
        await page.wait_for("counter.version === 3", 10, "version 3")
        epoch = await page.evaluate("counter.epoch")
        calls_before = len(await page.evaluate("record.calls"))

        expect(server.stop() == 0, "the server stops cleanly on SIGTERM")
        await page.wait_for("client.status !== 'live'", 10, "the page to notice the server is gone")
        await page.evaluate("window.offlineSend = counter.send({ type: 'increment' }, { id: 'sent-offline' })"
                            ".then((ack) => ({ ack }), (error) => ({ error: error.code + ': ' + error.message })); 0")
        server.start()
        post_action(server.port, "counter", {"type": "add", "payload": {"amount": 10}})  # version 4, while away
        proxy.command(f"upstream {server.port}")

        outcome = await page.evaluate("offlineSend")
        expect("ack" in outcome and outcome["ack"]["version"] == 5,
               f"the offline send resolves at version 5: {outcome}")
        await page.wait_for("counter.version === 5 && client.status === 'live'", 15, "the page back live at version 5")
        record = await page.evaluate("record")
        after = record["calls"][calls_before:]
        expect(after and after[0]["patch"] and after[0]["version"] == 4 and after[0]["epoch"] == epoch,
               f"the resume came as one patch to version 4 in the same epoch, not a snapshot: {after}")
        expect(all(call["patch"] for call in after), f"nothing after the restart was a snapshot: {after}")
        expect(record["backwards"] == 0, f"no version went back: {record['calls']}")
        expect(await page.evaluate("counter.state.count") == 14, "the page shows count 14")
        expect(read_store(server.port, "counter")["state"]["count"] == 14, "the server holds count 14")
        statuses = await page.evaluate("statuses")
        expect(statuses[-1] == "live" and "live" in statuses[:-1],
               f"the status went live, away and live again: {statuses}")
        await check_pages(page)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


async def cut_during_send(context):
    """The connection is reset after an action reached the server but before its ack came back: the client resends
    it with the same id once reconnected, the server replays the outcome, and the action is applied exactly once.
    Then 20 sends with a cut right behind them: each applied once."""
    server = context.server()
    proxy = context.start_proxy(server.port)
    base = base_of(proxy.port)
    page = await context.page(base)
    await page.evaluate(f"window.client = T.module.connect({json.dumps(base)}, "
                        "{ backoff: { initialMs: 50, maxMs: 400 } });"
                        "window.counter = client.store('counter'); window.record = T.track(counter); 0")
    await page.wait_for("client.status === 'live' && counter.version === 0", 10, "the first snapshot")

    proxy.command("stall 10000 down")  # the action goes through; its ack waits in the proxy
    await page.evaluate("window.held = counter.send({ type: 'increment' }, { id: 'cut-1' })"
                        ".then((ack) => ({ ack }), (error) => ({ error: error.code + ': ' + error.message })); 0")
    await poll(lambda: read_store(server.port, "counter")["version"] == 1, 10, "the server to apply the action")
    _, answer = proxy.command("cut")
    # The page's WebSocket, and the keep-alive connection that fetched the module if still open.
    expect(answer.startswith("ok cut ") and int(answer.split()[2]) >= 1, f"the proxy cut the connections ({answer})")
    outcome = await page.evaluate("held")
    expect("ack" in outcome and outcome["ack"]["version"] == 1 and outcome["ack"].get("replayed") is True,
           f"the send resolves with version 1, replayed: {outcome}")
    expect(read_store(server.port, "counter")["state"]["count"] == 1, "applied exactly once (count 1)")

    await page.evaluate("window.pending = Promise.all(Array.from({ length: 20 }, () => counter.send({ type: "
                        "'increment' }).then((ack) => ({ ack }), (error) => ({ error: error.code + ': ' + "
                        "error.message })))); 0")
    proxy.command("cut")  # right behind the sends: some reached the server, some are on the way, acks are lost
    outcomes = await page.evaluate("pending")
    errors = [outcome for outcome in outcomes if "error" in outcome]
    expect(not errors, f"every send resolves: {errors}")
    expect(read_store(server.port, "counter")["state"]["count"] == 21, "each of the 20 applied exactly once (21)")
    await page.wait_for("counter.version === 21", 10, "the page at version 21")
    expect((await page.evaluate("record"))["backwards"] == 0, "no version went back")
    await check_pages(page)


async def cors_refused_origin(context):
    """A page from an origin the server's `cors` does not list gets a clear failure, not a hang: the module import
    fails, and a client (module from the page's own origin) rejects its send instead of waiting forever."""
    server = context.server()
    base = base_of(server.port)
    page = await context.browser.new_page(context.refused.url + "/blank.html")
    outcome = await page.evaluate(f"import({json.dumps(base + '/client/statehouse.js')})"
                                  ".then(() => 'loaded', (error) => 'failed: ' + error.message)", timeout_s=15)
    expect(outcome.startswith("failed"), f"importing the module from a refused origin fails: {outcome}")
    direct = await page.evaluate(f"fetch({json.dumps(base + '/stores/counter')})"
                                 ".then((response) => 'status ' + response.status, (error) => 'failed')")
    expect(direct == "failed", f"a plain fetch from the refused origin fails in the browser: {direct}")

    await page.evaluate(f"{PAGE_HELPERS}({json.dumps(context.refused.url + '/client/statehouse.js')})")
    started = time.monotonic()
    outcome = await page.evaluate(f"""(async () => {{
      const client = T.module.connect({json.dumps(base)},
        {{ ackTimeoutMs: 3000, backoff: {{ initialMs: 50, maxMs: 300 }} }});
      window.client = client;
      const statuses = T.statuses(client);
      try {{
        const ack = await client.store('counter').send({{ type: 'increment' }});
        return {{ ack, statuses }};
      }} catch (error) {{
        return {{ error: {{ name: error.name, code: error.code, message: error.message }}, statuses }};
      }}
    }})()""", timeout_s=20)
    elapsed = time.monotonic() - started
    expect("error" in outcome and outcome["error"]["name"] == "StatehouseError",
           f"the send rejects with a StatehouseError: {outcome}")
    expect(elapsed < 15, f"it fails within the ack timeout, not a hang ({elapsed:.1f} s)")
    expect("live" not in outcome["statuses"], f"the client never went live: {outcome['statuses']}")
    expect(read_store(server.port, "counter")["version"] == 0, "nothing was applied")
    await page.evaluate("client.close(); 0")
    await check_pages(page)


async def sse_fallback(context):
    """`transport: 'sse'`: live updates (EventSource) and sends (fetch POST with Idempotency-Key) work."""
    server = context.server()
    base = base_of(server.port)
    a, b = await context.page(base), await context.page(base)
    for page in (a, b):
        await page.evaluate(f"window.client = T.module.connect({json.dumps(base)}, {{ transport: 'sse' }});"
                            "window.counter = client.store('counter', { format: 'patch' });"
                            "window.record = T.track(counter); 0")
        await page.wait_for("client.status === 'live' && counter.version === 0", 10, "the first snapshot over SSE")
    acks = await a.evaluate("Promise.all([1, 2, 3].map(() => counter.send({ type: 'increment' })))")
    expect(sorted(ack["version"] for ack in acks) == [1, 2, 3], f"three sends resolve with versions 1–3: {acks}")
    await b.wait_for("counter.version === 3 && counter.state.count === 3", 10, "page B to see count 3")
    again = await b.evaluate("counter.send({ type: 'add', payload: { amount: 5 } }, { id: 'sse-key' })")
    expect(again["version"] == 4, f"page B's send resolves at version 4: {again}")
    await a.wait_for("counter.state.count === 8", 10, "page A to see page B's send")
    for page in (a, b):
        record = await page.evaluate("record")
        expect(record["backwards"] == 0, f"no version went back: {record}")
        expect(not await page.evaluate("performance.getEntriesByType('resource')"
                                       ".some((entry) => entry.name.startsWith('ws'))"), "no WebSocket was used")
    expect(read_store(server.port, "counter")["state"]["count"] == 8, "the server holds count 8")
    await check_pages(a, b)


CHAOS_CLIENT = """
(async (base, count, inFlight, paceMs) => {
  const client = T.module.connect(base, { backoff: { initialMs: 20, maxMs: 250 } });
  const counter = client.store('counter', { format: 'patch' });
  const record = T.track(counter);
  window.chaos = { record, sent: 0, acked: 0, replayed: 0, errors: [], done: false };
  let next = 0;
  async function worker() {
    while (next < count) {
      next += 1;
      window.chaos.sent += 1;
      try {
        const ack = await counter.send({ type: 'increment' });
        window.chaos.acked += 1;
        if (ack.replayed) window.chaos.replayed += 1;
      } catch (error) {
        window.chaos.errors.push(error.code + ': ' + error.message);
      }
      // Pacing, not synchronisation: spreads the sends over seconds, so the chaos has time to strike many times.
      await new Promise((resolve) => setTimeout(resolve, paceMs));
    }
  }
  window.chaos.finished = Promise.all(Array.from({ length: inFlight }, worker))
    .then(() => { window.chaos.done = true; });
  window.client = client;
  window.counter = counter;
  return 0;
})
"""


async def chaos(context):
    """3 pages on one Counter store send 1,000 increments each (4 in flight per page, each sender pausing 20 ms after an
    answer, so a run lasts about 5 s) through the proxy while it cuts or stalls a random connection every 50–300 ms:
    every action applied exactly once (count 3,000), every page on the same final version, no page ever saw a version
    go back."""
    per_page = int(os.environ.get("CHAOS_ACTIONS", "1000"))
    server = context.server()
    proxy = context.start_proxy(server.port)
    base = base_of(proxy.port)
    pages = [await context.page(base) for _ in range(3)]
    proxy.command(f"chaos {context.options.seed} 50 300")
    for page in pages:
        await page.evaluate(f"{CHAOS_CLIENT}({json.dumps(base)}, {per_page}, 4, 20)")
    deadline = time.monotonic() + 80
    for page in pages:
        await page.wait_for("chaos.done", max(1, deadline - time.monotonic()), "every send to settle")
    proxy.command("calm")
    cuts, stalls = proxy.count("cut"), proxy.count("stall")
    print(f"        (seed {context.options.seed}: {cuts} cuts, {stalls} stalls)", flush=True)
    total = 3 * per_page
    await poll(lambda: read_store(server.port, "counter")["state"]["count"] == total, 10, f"count {total}")
    final = read_store(server.port, "counter")["version"]
    expect(final == total, f"{total} versions (each increment applied once): {final}")
    for index, page in enumerate(pages):
        await page.wait_for(f"counter.version === {final}", 15, f"page {index} to reach version {final}")
        summary = await page.evaluate("({ sent: chaos.sent, acked: chaos.acked, replayed: chaos.replayed, "
                                      "errors: chaos.errors.slice(0, 5), errorCount: chaos.errors.length, "
                                      "backwards: chaos.record.backwards, count: counter.state.count })")
        expect(summary["errorCount"] == 0 and summary["acked"] == per_page,
               f"page {index}: every send resolved: {summary}")
        expect(summary["backwards"] == 0, f"page {index}: no version went back: {summary}")
        expect(summary["count"] == total, f"page {index} shows count {total}: {summary}")
        print(f"        (page {index}: {summary['replayed']} replayed acks)", flush=True)
    expect(cuts >= 5, f"the proxy cut connections during the run ({cuts})")
    await check_pages(*pages)


async def todo_example(context):
    """examples/todo/index.html (from the page origin, `?server=` naming the server) in two pages: items added in one
    appear in the other; a screenshot of the second."""
    expect((EXAMPLE / "index.html").is_file(), "examples/todo/index.html exists")
    server = context.server()
    url = f"{context.allowed.url}/todo/index.html?server={base_of(server.port)}"
    a, b = await context.browser.new_page(url), await context.browser.new_page(url)
    for page in (a, b):
        await page.wait_for("document.getElementById('status')?.textContent === 'live'", 10,
                            "the example to show the status live")
    add = """(async (text) => {
      const field = document.querySelector('input[type=text], input:not([type])');
      field.value = text;
      field.dispatchEvent(new Event('input', { bubbles: true }));
      const form = field.closest('form');
      if (form) form.requestSubmit();
      else field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      return 0;
    })"""
    for text in ("Buy milk", "Call the plumber", "Water the plants"):
        await a.evaluate(f"{add}({json.dumps(text)})")
        await b.wait_for(f"document.body.innerText.includes({json.dumps(text)})", 10, f"page B to show {text!r}")
    await b.evaluate("document.querySelector('li input[type=checkbox]').click(); 0")  # page B ticks the first item
    await a.wait_for("document.querySelector('li input[type=checkbox]')?.checked === true", 10,
                     "page A to show the first item done")
    state = read_store(server.port, "todos")["state"]
    expect([item["text"] for item in state["items"]] == ["Buy milk", "Call the plumber", "Water the plants"]
           and [item["done"] for item in state["items"]] == [True, False, False],
           f"the server holds the three items, the first done: {state}")
    target = SCREENSHOT if os.environ.get("SCREENSHOT") == "1" else Path(tempfile.mkdtemp()) / "todo-example.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    await b.screenshot(str(target), width=640, height=460)
    expect(target.stat().st_size > 1000, f"the screenshot was written ({target})")
    if target != SCREENSHOT:
        shutil.rmtree(target.parent, ignore_errors=True)
    await check_pages(a, b)


# The inspector (/inspector, docs/operations.md "Inspector"): DOM probes of its page.
INSPECTOR_ROWS = "document.querySelectorAll('#stores tbody tr').length"
INSPECTOR_FORM = """(async (action) => {
  document.getElementById('action').value = action;
  document.getElementById('action-form').requestSubmit();
  return 0;
})"""


def inspector_version_of(store):
    return f"document.querySelector('#stores tr[data-store={json.dumps(store)}] .version')?.textContent"


async def inspector_select(page, store):
    await page.evaluate(f"document.querySelector('#stores tr[data-store={json.dumps(store)}] button').click(); 0")
    await page.wait_for(f"document.getElementById('store-name').textContent === {json.dumps(store)} && "
                        "document.querySelector('#tree details, #tree .leaf') !== null", 10, f"{store}'s state tree")


async def inspector_send(page, action, expected_version):
    """Sends `action` from the page's form; waits for the ack naming `expected_version`."""
    await page.evaluate(f"{INSPECTOR_FORM}({json.dumps(json.dumps(action))})")
    text = await page.wait_for("document.getElementById('ack').className !== 'muted' && "
                               "document.getElementById('ack').textContent", 10, f"the ack of {action}")
    expect(text == f"Acknowledged: version {expected_version}", f"the form shows the ack's version: {text!r}")


async def inspector(context):
    """/inspector against a server with a durable store (todos) and one in memory (counter): the stores with their
    subscribers and the connections appear; the form sends actions and shows the ack's version or the server's
    error; the new version appears in the list and in the tree, the changed paths highlighted; a durable store lists
    its recent actions, one in memory says why it does not. A screenshot of the todos store."""
    directory = tempfile.mkdtemp(prefix="statehouse-browser-")
    try:
        storage = {"path": os.path.join(directory, "stores.sqlite"), "sync": "commit"}
        stores = [{"name": "counter", "reducer": "Counter", "durable": False}, {"name": "todos", "reducer": "TodoList"}]
        server = context.server(cors=False, stores=stores, storage=storage)
        base = base_of(server.port)
        page = await context.browser.new_page(base + "/inspector")
        await page.wait_for(f"{INSPECTOR_ROWS} === 2 && document.getElementById('status').textContent === 'live'",
                            10, "the store list and the live client")
        # The page's own WebSocket (live already) shows in the connection list by the next refresh.
        await page.wait_for("[...document.querySelectorAll('#connections tbody tr td:nth-child(2)')]"
                            ".some((cell) => cell.textContent === 'websocket')", 10,
                            "the page's WebSocket in the connection list")

        await inspector_select(page, "counter")
        await page.wait_for("document.getElementById('actions').textContent.includes("
                            "'Recent actions are listed for durable stores')", 10, "the note for a store in memory")
        await inspector_send(page, {"type": "add", "payload": {"amount": 5}}, 1)
        await page.wait_for(f"{inspector_version_of('counter')} === '1'", 10, "version 1 in the store list")
        value = await page.wait_for("document.querySelector('#tree .changed[data-pointer=\"/count\"]')?.textContent",
                                    10, "/count highlighted in the tree")
        expect(value == '"count": 5', f"the tree shows the new count, highlighted: {value!r}")
        subscribers = await page.evaluate("document.querySelector('#stores tr[data-store=\"counter\"] "
                                          "td:nth-child(4)').textContent")
        expect(subscribers == "1", f"the store list counts the page's WebSocket subscriber: {subscribers!r}")

        # The server's error message for an action the store does not know.
        await page.evaluate(f"{INSPECTOR_FORM}({json.dumps(json.dumps({'type': 'no_such_action'}))})")
        error = await page.wait_for("document.getElementById('ack').className === 'error' && "
                                    "document.getElementById('ack').textContent", 10, "the refusal")
        expect(error.startswith("invalid_action: "), f"the form shows the server's error: {error!r}")
        # A change from elsewhere appears too.
        post_action(server.port, "counter", {"type": "increment"})
        await page.wait_for("document.getElementById('store-version').textContent === 'version 2' && "
                            f"{inspector_version_of('counter')} === '2'", 10, "version 2 from another client")

        await inspector_select(page, "todos")
        for version, text in enumerate(("Buy milk", "Call the plumber", "Water the plants"), start=1):
            await inspector_send(page, {"type": "add", "payload": {"text": text}}, version)
        await page.wait_for(f"{inspector_version_of('todos')} === '3'", 10, "todos at version 3 in the list")
        changed = await page.wait_for("[...document.querySelectorAll('#tree .changed')].map((node) => "
                                      "node.closest('[data-pointer]').dataset.pointer).join(' ')", 10,
                                      "the last patch's paths highlighted")
        expect("/items/2" in changed.split(), f"the new item is highlighted: {changed!r}")
        logged = await page.wait_for("document.querySelectorAll('#actions tbody tr').length === 3 && "
                                     "[...document.querySelectorAll('#actions tbody tr')].map((row) => "
                                     "row.dataset.version)", 10, "the three actions in the recent list")
        expect(logged == ["3", "2", "1"], f"the recent actions, newest first, with their versions: {logged}")
        target = INSPECTOR_SCREENSHOT if os.environ.get("SCREENSHOT") == "1" else Path(directory) / "inspector.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        await page.screenshot(str(target), width=1100, height=1010)
        expect(target.stat().st_size > 1000, f"the screenshot was written ({target})")
        await check_pages(page)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


async def inspector_with_auth(context):
    """/inspector under `auth`: the page loads (public) and says a token is needed; with a token (metrics, read,
    write) entered in its field it lists the stores and sends an action; the token stays in sessionStorage across a
    reload. A token without `metrics` still lists the stores and says what the overview needs."""
    full, reader = "inspector-token-0123456789", "reader-token-0123456789"
    auth = [{"token": full, "scopes": ["metrics", "read", "write"]}, {"token": reader, "scopes": ["read", "write"]}]
    server = context.server(cors=False, auth=auth)
    base = base_of(server.port)
    page = await context.browser.new_page(base + "/inspector")
    text = await page.wait_for("!document.getElementById('notice').hidden && "
                               "document.getElementById('notice').textContent", 10, "the notice asking for a token")
    expect(text.startswith("401 unauthorized: ") and "Enter a token" in text, f"the page asks for a token: {text!r}")

    async def use_token(token):
        await page.evaluate(f"document.getElementById('token').value = {json.dumps(token)};"
                            "document.getElementById('token-form').requestSubmit(); 0")

    await use_token(full)
    await page.wait_for(f"{INSPECTOR_ROWS} === 2 && document.getElementById('notice').hidden && "
                        "document.getElementById('status').textContent === 'live'", 10, "the stores with the token")
    await inspector_select(page, "counter")
    await inspector_send(page, {"type": "increment"}, 1)
    await page.wait_for(f"{inspector_version_of('counter')} === '1'", 10, "version 1 in the store list")
    stored = await page.evaluate("sessionStorage.getItem('statehouse.inspector.token')")
    expect(stored == full, f"the token is kept in sessionStorage: {stored!r}")
    await page.goto(base + "/inspector")
    await page.wait_for(f"{INSPECTOR_ROWS} === 2 && document.getElementById('notice').hidden && "
                        f"{inspector_version_of('counter')} === '1'", 10, "the stores again after a reload")

    await use_token(reader)
    text = await page.wait_for(f"{INSPECTOR_ROWS} === 2 && !document.getElementById('notice').hidden && "
                               "document.getElementById('notice').textContent", 10, "the list without the metrics scope")
    expect(text.startswith("403 forbidden: ") and "metrics scope" in text, f"the page says what is missing: {text!r}")
    await check_pages(page)


def inspector_storage_of(store):
    return f"document.querySelector('#stores tr[data-store={json.dumps(store)}] td:last-child')?.textContent"


async def inspector_cluster(context):
    """/inspector on two cluster nodes sharing a Redis of the test's own (docs/cluster.md): the node that took the
    counter's lease says it owns it, the other names the owner (learned from the change it published); an action sent
    from the other node's form is forwarded to the owner, acked with its version, and both lists show it."""
    redis = context.start_redis()
    storage = {"redis": f"redis://127.0.0.1:{redis.port}", "leaseMs": 2000}
    first = context.server(cors=False, storage={**storage, "node": "n1"})
    second = context.server(cors=False, storage={**storage, "node": "n2"})
    post_action(first.port, "counter", {"type": "increment"})  # n1 takes the counter's lease
    owner_page = await context.browser.new_page(base_of(first.port) + "/inspector")
    page = await context.browser.new_page(base_of(second.port) + "/inspector")
    text = await page.wait_for(f"{inspector_version_of('counter')} === '1' && "
                               f"{inspector_storage_of('counter')}", 10, "the counter at version 1 on n2")
    expect(text == "cluster: owner n1", f"n2 names the owner: {text!r}")
    text = await owner_page.wait_for(f"{inspector_storage_of('counter')}?.startsWith('cluster: owned here') && "
                                     f"{inspector_storage_of('counter')}", 10, "n1 owning the counter")
    expect(text.startswith("cluster: owned here (n1), lease held "), f"n1 says it owns the counter: {text!r}")
    await inspector_select(page, "counter")
    await inspector_send(page, {"type": "add", "payload": {"amount": 5}}, 2)
    for each in (page, owner_page):
        await each.wait_for(f"{inspector_version_of('counter')} === '2'", 10, "version 2 in both lists")
    expect(read_store(first.port, "counter")["state"] == {"count": 6}, "the owner applied the forwarded action")
    await check_pages(page, owner_page)


TESTS = [live_sync, restart_resumes_with_a_patch, cut_during_send, cors_refused_origin, sse_fallback, chaos,
         todo_example, inspector, inspector_with_auth, inspector_cluster]


async def run(options):
    names = options.only or [test.__name__ for test in TESTS]
    passed, failed = 0, []
    started = time.monotonic()
    async with Browser.launch() as browser:
        for test in TESTS:
            if test.__name__ not in names:
                continue
            test_started = time.monotonic()
            context = Context(browser, options)
            try:
                await asyncio.wait_for(test(context), TEST_LIMITS_S[test.__name__])
                passed += 1
                print(f"  ok    {test.__name__} ({time.monotonic() - test_started:.1f} s)", flush=True)
            except Exception as error:
                failed.append(test.__name__)
                reason = f"timed out after {TEST_LIMITS_S[test.__name__]} s" if isinstance(
                    error, asyncio.TimeoutError) else f"{type(error).__name__}: {error}"
                print(f"  FAIL  {test.__name__} ({time.monotonic() - test_started:.1f} s): {reason}", flush=True)
                if not isinstance(error, (Failure, BrowserError, asyncio.TimeoutError)):
                    traceback.print_exc()
                for page in browser.pages:
                    for line in page.console_errors[-5:]:
                        print(f"        console: {line}", flush=True)
                for server in context.servers:
                    for line in server.log_text().splitlines()[-5:]:
                        print(f"        server: {line}", flush=True)
            finally:
                for page in browser.pages:
                    await page.close()
                browser.pages.clear()
                context.close()
    print(f"browser tests finished in {time.monotonic() - started:.0f} s")
    return passed, failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "statehouse"))
    parser.add_argument("--only", nargs="*", choices=[test.__name__ for test in TESTS])
    parser.add_argument("--seed", type=int, default=int(os.environ.get("SEED", "1515")), help="the chaos seed")
    parser.add_argument("--client-js", default=str(CLIENT_JS),
                        help="the module the page origin serves (the refused-origin test's copy)")
    parser.add_argument("--module-from-origin", action="store_true",
                        help="pages import the module from the page origin, not the server (a server without "
                             "/client/statehouse.js, while developing)")
    options = parser.parse_args()
    options.module_source = Path(options.client_js)
    if not options.module_source.is_file():
        # A tree without the browser client (before it lands) has nothing to test: said plainly, counted as none.
        print(f"browser tests: skipped, {options.module_source} does not exist")
        print("browser tests: 0 passed, 0 failed")
        return 0
    passed, failed = asyncio.run(run(options))
    print(f"browser tests: {passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
