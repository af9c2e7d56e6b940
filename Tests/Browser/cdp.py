"""A small Chrome DevTools Protocol driver for the browser tests: Debian's `chromium`, headless, over one WebSocket.

    async with Browser.launch() as browser:          # Chromium is killed on the way out, whatever happened
        page = await browser.new_page("http://127.0.0.1:8000/blank.html")
        value = await page.evaluate("1 + 1")         # promises are awaited; the result comes back as JSON
        await page.wait_for("window.done === true", timeout_s=5, what="the page to finish")
        await page.screenshot("shot.png")
        page.raise_if_failed()                       # any uncaught exception (or unhandled rejection) fails

Needs the `websockets` package (the project's .venv, Tests/Python/requirements.txt). Protocol reference:
https://chromedevtools.github.io/devtools-protocol/ (Target, Runtime, Page domains; sessions are "flattened": every
page command goes over the browser's socket with a `sessionId`).
"""

import asyncio
import base64
import contextlib
import ctypes
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

import websockets

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
LAUNCH_TIMEOUT_S = 20
COMMAND_TIMEOUT_S = 30


class BrowserError(Exception):
    """Chromium could not start, a command failed or timed out, or a page threw."""


class Browser:
    """One headless Chromium process and the DevTools connection to it.

    Lifecycle: launched -> connected -> closed. `close()` (run by `async with` even on failure) asks the browser to
    close, then kills its whole process group and removes the profile directory.
    """

    def __init__(self, process, profile, socket):
        self.process = process
        self.profile = profile
        self.socket = socket
        self.next_id = 0
        self.waiting = {}       # command id -> future of its result
        self.listeners = []     # (sessionId, method, callback)
        self.pages = []
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    @contextlib.asynccontextmanager
    async def launch(cls, width=1000, height=760):
        if shutil.which(CHROMIUM) is None:
            raise BrowserError(f"no `{CHROMIUM}` on PATH: install Debian's chromium (scripts/bootstrap does)")
        profile = tempfile.mkdtemp(prefix="statehouse-chromium-")
        arguments = [
            CHROMIUM, "--headless=new", "--no-sandbox", "--remote-debugging-port=0", f"--user-data-dir={profile}",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-gpu",
            "--disable-background-networking", "--disable-breakpad", "--disable-crash-reporter",
            "--disable-component-update", "--disable-sync",
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            "--disable-backgrounding-occluded-windows", "--disable-dev-shm-usage", "--mute-audio",
            f"--window-size={width},{height}", "about:blank",
        ]

        def die_with_parent():
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG

        log = open(os.path.join(profile, "chromium.log"), "wb")
        process = subprocess.Popen(arguments, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                                   start_new_session=True, preexec_fn=die_with_parent)
        browser = None
        try:
            address = await cls._devtools_address(process, profile)
            socket = await websockets.connect(address, max_size=None, ping_interval=None)
            browser = cls(process, profile, socket)
            yield browser
        finally:
            if browser is not None:
                await browser.close()
            else:
                cls._kill(process)
            log.close()
            shutil.rmtree(profile, ignore_errors=True)

    @staticmethod
    async def _devtools_address(process, profile):
        """Polls <profile>/DevToolsActivePort (line 1: the port, line 2: the browser's WebSocket path)."""
        path = os.path.join(profile, "DevToolsActivePort")
        deadline = time.monotonic() + LAUNCH_TIMEOUT_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                break
            with contextlib.suppress(OSError):
                with open(path) as file:
                    lines = file.read().split("\n")
                if len(lines) >= 2 and lines[0].strip() and lines[1].strip():
                    return f"ws://127.0.0.1:{lines[0].strip()}{lines[1].strip()}"
            await asyncio.sleep(0.05)
        tail = ""
        with contextlib.suppress(OSError):
            with open(os.path.join(profile, "chromium.log"), errors="replace") as file:
                tail = file.read()[-1500:]
        raise BrowserError(f"chromium did not open its DevTools port within {LAUNCH_TIMEOUT_S} s "
                           f"(exit status {process.poll()}); its output: {tail}")

    @staticmethod
    def _kill(process):
        """SIGKILL to the whole process group (the browser, its zygote, renderers and GPU process)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)

    async def close(self):
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.send("Browser.close"), 3)
        self.reader.cancel()
        with contextlib.suppress(Exception):
            await self.socket.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=3)
        self._kill(self.process)

    async def _read(self):
        try:
            async for text in self.socket:
                message = json.loads(text)
                if "id" in message:
                    future = self.waiting.pop(message["id"], None)
                    if future is not None and not future.done():
                        if "error" in message:
                            future.set_exception(BrowserError(f"CDP error: {message['error']}"))
                        else:
                            future.set_result(message.get("result", {}))
                    continue
                for session, method, callback in list(self.listeners):
                    if method == message.get("method") and session == message.get("sessionId"):
                        callback(message.get("params", {}))
        except websockets.ConnectionClosed:
            pass
        finally:
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(BrowserError("the DevTools connection closed"))

    async def send(self, method, params=None, session=None, timeout_s=COMMAND_TIMEOUT_S):
        """Sends one CDP command and returns its `result`. Throws BrowserError on a CDP error or past the timeout."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        future = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = future
        await self.socket.send(json.dumps(message))
        try:
            return await asyncio.wait_for(future, timeout_s)
        except asyncio.TimeoutError:
            self.waiting.pop(message["id"], None)
            raise BrowserError(f"{method} got no answer within {timeout_s} s") from None

    def on(self, session, method, callback):
        self.listeners.append((session, method, callback))

    async def new_page(self, url, timeout_s=15):
        """Opens a tab (Target.createTarget), attaches to it, enables Runtime/Page/Log, loads `url` and waits for
        its load event. Returns the Page."""
        target = await self.send("Target.createTarget", {"url": "about:blank"})
        attached = await self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
        page = Page(self, target["targetId"], attached["sessionId"])
        await page.setup()
        self.pages.append(page)
        await page.goto(url, timeout_s)
        return page


class Page:
    """One tab. `exceptions` collects uncaught exceptions and unhandled rejections, `console_errors` console.error
    calls and the browser's own error log entries (failed loads, CORS refusals)."""

    def __init__(self, browser, target, session):
        self.browser = browser
        self.target = target
        self.session = session
        self.exceptions = []
        self.console_errors = []
        self.loaded = asyncio.Event()

    async def send(self, method, params=None, timeout_s=COMMAND_TIMEOUT_S):
        return await self.browser.send(method, params, self.session, timeout_s)

    async def setup(self):
        self.browser.on(self.session, "Runtime.exceptionThrown", self._exception)
        self.browser.on(self.session, "Runtime.consoleAPICalled", self._console)
        self.browser.on(self.session, "Log.entryAdded", self._log)
        self.browser.on(self.session, "Page.loadEventFired", lambda _: self.loaded.set())
        for domain in ("Runtime", "Page", "Log"):
            await self.send(f"{domain}.enable")

    def _exception(self, params):
        details = params.get("exceptionDetails", {})
        description = details.get("exception", {}).get("description") or details.get("text", "")
        self.exceptions.append(f"{description} ({details.get('url', '')}:{details.get('lineNumber', '?')})")

    def _console(self, params):
        if params.get("type") in ("error", "assert"):
            self.console_errors.append(" ".join(
                str(argument.get("value", argument.get("description", ""))) for argument in params.get("args", [])))

    def _log(self, params):
        entry = params.get("entry", {})
        if entry.get("level") == "error":
            self.console_errors.append(f"{entry.get('text', '')} {entry.get('url', '')}".strip())

    async def goto(self, url, timeout_s=15):
        self.loaded.clear()
        result = await self.send("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise BrowserError(f"cannot load {url}: {result['errorText']}")
        try:
            await asyncio.wait_for(self.loaded.wait(), timeout_s)
        except asyncio.TimeoutError:
            raise BrowserError(f"{url} did not finish loading within {timeout_s} s") from None

    async def evaluate(self, expression, timeout_s=COMMAND_TIMEOUT_S):
        """Runs `expression` in the page (a promise is awaited) and returns its value as JSON (undefined -> None).
        A thrown error (or rejected promise) raises BrowserError with the page's description of it."""
        result = await self.send("Runtime.evaluate", {
            "expression": expression, "awaitPromise": True, "returnByValue": True, "userGesture": True,
            "timeout": int(timeout_s * 1000)}, timeout_s=timeout_s + 5)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            description = details.get("exception", {}).get("description") or details.get("text", "")
            raise BrowserError(f"the page threw: {description}")
        return result.get("result", {}).get("value")

    async def wait_for(self, expression, timeout_s, what, interval_s=0.05):
        """Polls `expression` until it is truthy; returns its value. Throws BrowserError naming `what` (and the
        last value) past the deadline, or at once if the page threw an uncaught exception meanwhile."""
        deadline = time.monotonic() + timeout_s
        value = None
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            self.raise_if_failed()
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out after {timeout_s} s waiting for {what} (last value: {value!r})")
            await asyncio.sleep(interval_s)

    async def screenshot(self, path, width=None, height=None):
        """Page.captureScreenshot as PNG, written to `path`; `width`×`height` (CSS pixels) resizes the viewport first
        (Emulation.setDeviceMetricsOverride)."""
        if width and height:
            await self.send("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        result = await self.send("Page.captureScreenshot", {"format": "png"})
        with open(path, "wb") as file:
            file.write(base64.b64decode(result["data"]))

    def raise_if_failed(self):
        if self.exceptions:
            raise BrowserError("uncaught exception in the page: " + "; ".join(self.exceptions))

    async def close(self):
        with contextlib.suppress(BrowserError):
            await self.browser.send("Target.closeTarget", {"targetId": self.target}, timeout_s=5)
