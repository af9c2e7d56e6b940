#!/usr/bin/env python3
"""make soak, part 2: the crash test of issue 13 against the real release server (durable stores, SIGKILL).

commit   A durable `counter` (sync "commit"). N client threads POST increments, each with its own Idempotency-Key,
         and M WebSocket subscribers (half format=state, half format=patch) record every version they see. The
         server is killed with SIGKILL at random moments (seeded; the seed is printed), K times, and started again on
         the same database. After each restart: acked <= count <= acked + in flight; version == count; the epoch is
         the same; no subscriber had seen a version above the recovered one; each subscriber resumes (epoch + since)
         with one patch (nothing if it was up to date), not a snapshot; every in-flight key is retried (first
         outcome or applied once now) and a sample of acked keys too (Idempotent-Replayed: true, the same version,
         count unchanged); then every action applied holds exactly one of the versions 1...count. Last, past 10,000
         keys (what a store keeps; keys are random, as UUIDs are), SIGTERM and a start: everything is there, and after
         one new key a sample of the 2,000 newest keys still replays.
interval The same with sync "interval" (intervalMs 100), killed twice: the recovered journal is a prefix of what was
         acked (acked keys at or below the recovered version replay, those above it are gone), count <= attempted,
         versions contiguous (/log), and the server starts again cleanly. What was lost is printed, not judged.
garbage  A database file of junk: exit 2 before listening, one line on stderr naming the file.

    .venv/bin/python Tests/Soak/crash.py --binary .build/release/statehouse [--seed S] [--only commit interval garbage]
        [--commit-sync interval|off]   (the commit checks in another mode: they fail, acked actions are lost)
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from soak_support import Checks, HTTPClient, Server, WebSocketClient, run_parts

ACTIONS = "/stores/counter/actions"
INCREMENT = '{"type":"increment"}'
HISTORY = 64  # streams.historySize (the default): a subscriber this close to the newest version must be resumed
KEYS_KEPT = 10_000  # idempotency keys a store keeps (docs/protocol.md)


def durable_config(path, sync, **storage):
    return {
        "listen": {"host": "127.0.0.1", "port": 0},
        "storage": dict({"path": path, "sync": sync, "snapshotEveryActions": 300}, **storage),
        "stores": [{"name": "counter", "reducer": "Counter"}],
    }


class Ledger:
    """Every Idempotency-Key sent: acknowledged ones with the version of their first answer, the rest in flight."""

    def __init__(self):
        self.lock = threading.Lock()
        self.acked = {}        # key -> version of the first answer
        self.acked_at = {}     # key -> time.monotonic() of the first answer
        self.in_flight = set()  # sent, no answer read (the server died) or an unexpected one
        self.unexpected = []   # (key, status, body) of answers other than 200
        self.twice = []        # versions of acked keys a retry applied again (a failure, counted so later checks hold)
        self.attempted = 0

    def sending(self, key):
        with self.lock:
            self.in_flight.add(key)
            self.attempted += 1

    def answered(self, key, version):
        with self.lock:
            self.in_flight.discard(key)
            self.acked[key] = version
            self.acked_at[key] = time.monotonic()

    def retried(self, key, response, version):
        """Records a retry of an acked key; False unless it replayed the first version."""
        replayed = response.status == 200 and response.field("Idempotent-Replayed") == "true"
        if response.status == 200 and not replayed:
            self.twice.append(version)
        return replayed and version == self.acked[key]

    def applied(self):
        return len(self.acked) + len(self.twice)

    def versions(self):
        return sorted(list(self.acked.values()) + self.twice)

    def refused(self, key, status, body):
        with self.lock:
            self.unexpected.append((key, status, body[:200]))


def newest_keys(ledger, label="", count=5_000):
    """The keys with `label` (e.g. "-r2-": sent in round 2) among the `count` answered last: a store keeps at most
    10,000 keys, the oldest forgotten first (docs/protocol.md), so only these are sure to be remembered."""
    answered = sorted(ledger.acked, key=ledger.acked_at.get)[-count:]
    return [key for key in answered if label in key]


def post(client, key):
    response = client.request("POST", ACTIONS, INCREMENT, headers=[("Idempotency-Key", key)])
    version = response.json().get("version") if response.status == 200 else None
    return response, version


def retry_acked(client, ledger, keys):
    """Sends acked keys again; what did not replay its first version (each applied again is in `ledger.twice`)."""
    wrong = []
    for key in keys:
        response, version = post(client, key)
        if not ledger.retried(key, response, version):
            wrong.append(f"{key}: {response.status} replayed={response.field('Idempotent-Replayed')} "
                         f"version {version} (first {ledger.acked[key]})")
    return wrong


def writer(port, label, ledger, stop):
    """POSTs increments with fresh keys until its connection dies (the kill) or `stop`."""
    try:
        client = HTTPClient(port)
    except OSError:
        return
    number = 0
    try:
        while not stop.is_set():
            # Random first, as clients' UUIDs are: the order a store keeps keys in must not be their text's.
            key = f"{os.urandom(4).hex()}-{label}-{number}"
            number += 1
            ledger.sending(key)
            try:
                response, version = post(client, key)
            except Exception:  # reset, EOF, a response cut short: the outcome of `key` is unknown
                return
            if response.status == 200:
                ledger.answered(key, version)
            else:
                ledger.refused(key, response.status, response.body)
    finally:
        client.close()


class Subscriber:
    """One WebSocket subscriber of the counter across restarts; each connection is a session (its messages)."""

    def __init__(self, index, format):
        self.index = index
        self.format = format
        self.sessions = []  # dicts: since, messages [(type, version, base, epoch, resumed)], connected, error
        self.last = None    # the newest version seen
        self.epoch = None
        self.thread = None

    def start(self, port):
        since = self.last
        query = f"format={self.format}"
        if since is not None:
            query += f"&epoch={self.epoch}&since={since}"
        session = {"since": since, "messages": [], "connected": threading.Event(), "error": None, "judged": True}
        self.sessions.append(session)
        self.thread = threading.Thread(target=self._run, args=(port, query, session), daemon=True)
        self.thread.start()

    def _run(self, port, query, session):
        try:
            ws = WebSocketClient(port, f"/stores/counter/ws?{query}")
        except Exception as error:
            session["error"] = f"{type(error).__name__}: {error}"
            session["connected"].set()
            return
        session["connected"].set()
        try:
            while True:
                frame = ws.receive(timeout_s=0.5)
                if frame is None:
                    if ws.closed:
                        return
                    continue
                opcode, payload = frame
                if opcode == 0x8:
                    return
                if opcode != 0x1:
                    continue
                message = json.loads(payload)
                if message.get("type") not in ("state", "patch"):
                    continue
                entry = (message["type"], message.get("version"), message.get("base"), message.get("epoch"),
                         message.get("resumed"))
                session["messages"].append(entry)
                self.last = message.get("version")
                self.epoch = message.get("epoch")
        except Exception as error:
            session["error"] = f"{type(error).__name__}: {error}"
        finally:
            ws.close()


def continuity_problems(since, messages, epoch):
    """Breaks in one session's stream: a state must be the previous version + 1, a patch must start at the previous
    version; versions only grow; every message is of `epoch`; no snapshot says resumed:false."""
    problems = []
    previous = since
    for kind, version, base, message_epoch, resumed in messages:
        if message_epoch != epoch:
            problems.append(f"epoch {message_epoch} at version {version}")
        if resumed is False:
            problems.append(f"a snapshot (resumed:false) at version {version}")
        if previous is None:
            if kind != "state":
                problems.append(f"first message of a fresh subscription is a {kind}")
        elif kind == "state" and version != previous + 1:
            problems.append(f"state {version} after {previous}")
        elif kind == "patch" and (base != previous or version <= previous):
            problems.append(f"patch {base}->{version} after {previous}")
        previous = version
    return problems


def read_counter(port):
    client = HTTPClient(port)
    try:
        response = client.request("GET", "/stores/counter")
        body = response.json()
        epoch = response.field("ETag").strip('"').rsplit("-", 1)[0]
        return body["version"], body["state"]["count"], epoch
    finally:
        client.close()


def log_versions(port, since, limit=1000):
    client = HTTPClient(port)
    try:
        response = client.request("GET", f"/stores/counter/log?since={since}&limit={limit}")
        if response.status != 200:
            return None, f"{response.status} {response.body[:200]!r}"
        lines = [json.loads(line) for line in response.body.decode().splitlines() if line.strip()]
        return [line["version"] for line in lines], None
    finally:
        client.close()


def wait_for(condition, deadline_s):
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def run_writers(port, round_number, clients, ledger, stop):
    threads = [threading.Thread(target=writer, args=(port, f"r{round_number}-c{index}", ledger, stop), daemon=True)
               for index in range(clients)]
    for thread in threads:
        thread.start()
    return threads


def join_all(threads, deadline_s):
    deadline = time.monotonic() + deadline_s
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return not any(thread.is_alive() for thread in threads)


def check_journal(checks, port, version, what):
    since = max(0, version - 200)
    versions, error = log_versions(port, since)
    if versions is None:
        checks.check(False, f"{what}: /log?since={since} answers ({error})")
        return
    contiguous = versions == list(range(versions[0], versions[0] + len(versions))) if versions else version == since
    checks.check(contiguous and (not versions or (versions[0] <= since + 1 and versions[-1] == version)),
                 f"{what}: /log?since={since} holds versions {versions[:1]}...{versions[-1:]} contiguously up to {version}")


def finish(checks, server, directory, failures):
    """Kills the server, shows its log when a check of this mode failed, removes the database."""
    server.kill()
    if len(checks.failed) > failures:
        print("  server log (last lines):\n" + "\n".join("    " + line for line in server.log_text().splitlines()[-20:]))
    shutil.rmtree(directory, ignore_errors=True)
    shutil.rmtree(server.directory, ignore_errors=True)


# MARK: commit


def commit_mode(checks, binary, rng, kills, clients, subscriber_count, sync="commit"):
    directory = tempfile.mkdtemp(prefix="statehouse-crash-")
    server = Server(binary, durable_config(os.path.join(directory, "counter.sqlite"), sync))
    ledger = Ledger()
    failures = len(checks.failed)
    subscribers = [Subscriber(index, "state" if index % 2 == 0 else "patch") for index in range(subscriber_count)]
    try:
        server.start()
        version, count, epoch = read_counter(server.port)
        checks.check(version == 0 and count == 0, f"commit: a new database starts at version 0 (got {version}, {count})")
        checks.note(f"epoch {epoch}")
        totals = {"lost_in_flight": 0, "applied_in_flight": 0, "downtime": []}
        for round_number in range(kills + 1):
            if round_number > 0:
                started = time.monotonic()
                server.start()
                totals["downtime"].append(time.monotonic() - started)
                after_restart(checks, server.port, round_number, ledger, subscribers, epoch, totals, rng)
            else:
                for subscriber in subscribers:
                    subscriber.start(server.port)
            sessions = [subscriber.sessions[-1] for subscriber in subscribers]
            checks.check(wait_for(lambda: all(s["connected"].is_set() for s in sessions), 10)
                         and not any(s["error"] for s in sessions),
                         f"commit round {round_number}: every subscriber connected "
                         f"({[s['error'] for s in sessions if s['error']]})")
            if round_number == kills:
                break
            stop = threading.Event()
            threads = run_writers(server.port, round_number, clients, ledger, stop)
            delay = rng.uniform(0.2, 2.0)
            time.sleep(delay)  # the random moment of the kill (not a synchronisation: any moment must do)
            status = server.kill()
            stop.set()
            ended = join_all(threads + [s.thread for s in subscribers], 15)  # each sees its connection die
            checks.check(status == -9 and ended,
                         f"commit round {round_number}: SIGKILL after {delay:.2f} s ({len(ledger.acked)} acked so far, "
                         f"{len(ledger.in_flight)} in flight; exit {status})")
            for subscriber, session in zip(subscribers, sessions):
                if session["judged"]:
                    problems = continuity_problems(session["since"], session["messages"], epoch)
                    checks.check(not problems,
                                 f"commit round {round_number}: subscriber {subscriber.index} ({subscriber.format}) saw "
                                 f"{len(session['messages'])} messages, versions continuing from {session['since']} "
                                 f"to {subscriber.last}: no gap, no repeat, one epoch {problems[:3]}")
        # More keys than a store keeps (10,000), then a clean stop and start: everything is kept, and the newest keys
        # come back.
        if ledger.attempted < KEYS_KEPT + 2_000:
            stop = threading.Event()
            threads = run_writers(server.port, kills, clients, ledger, stop)
            wait_for(lambda: ledger.attempted >= KEYS_KEPT + 2_000, 30)
            stop.set()
            join_all(threads, 15)
        stop_status = server.stop()
        join_all([s.thread for s in subscribers], 10)  # closed with 1001 by the stop
        sessions = [subscriber.sessions[-1] for subscriber in subscribers]
        problems = [problem for session in sessions if session["judged"]
                    for problem in continuity_problems(session["since"], session["messages"], epoch)]
        checks.check(not problems, f"commit last round: every subscriber's versions continue up to "
                                   f"{[s.last for s in subscribers]} {problems[:3]}")
        version, count, _ = read_counter(server.start().port) if stop_status == 0 else (None, None, None)
        checks.check(stop_status == 0 and version == ledger.applied() and count == version,
                     f"commit: after SIGTERM (exit {stop_status}) and a start, version {version} == count {count} "
                     f"== actions applied {ledger.applied()}")
        newest = newest_keys(ledger, count=2_000)
        client = HTTPClient(server.port)
        fresh = "after-the-stop"  # a new key first, as any client would send: the store makes room for it
        ledger.sending(fresh)
        response, fresh_version = post(client, fresh)
        ledger.answered(fresh, fresh_version)
        wrong = retry_acked(client, ledger, rng.sample(newest, min(50, len(newest))))
        client.close()
        final = read_counter(server.port)[1]
        checks.check(not wrong and final == count + 1,
                     f"commit: {len(ledger.acked)} keys sent; after the start, one new key, then 50 of the 2,000 newest "
                     f"retried: replayed with their first version, count {count + 1} -> {final} "
                     f"({len(wrong)} applied again: {wrong[:3]})")
        checks.check(not ledger.unexpected, f"commit: every POST was answered 200 or cut by the kill "
                                            f"({ledger.unexpected[:3]})")
        downtime = ", ".join(f"{value:.2f}" for value in totals["downtime"])
        checks.note(f"{ledger.attempted} POSTs, {len(ledger.acked)} keys applied; in flight at the kills: "
                    f"{totals['applied_in_flight']} had been applied, {totals['lost_in_flight']} not; "
                    f"restarts took {downtime} s")
    finally:
        finish(checks, server, directory, failures)


def after_restart(checks, port, round_number, ledger, subscribers, epoch, totals, rng):
    what = f"commit restart {round_number}"
    version, count, new_epoch = read_counter(port)
    acked = ledger.applied()
    in_flight = sorted(ledger.in_flight)
    checks.check(acked <= count <= acked + len(in_flight),
                 f"{what}: acked {acked} <= count {count} <= acked + in flight {acked + len(in_flight)}")
    checks.check(version == count, f"{what}: version {version} == count {count} (no gap, no repeat)")
    checks.check(new_epoch == epoch, f"{what}: the epoch is unchanged ({new_epoch})")
    highest_ack = max(ledger.acked.values(), default=0)
    seen = max((s.last for s in subscribers if s.last is not None), default=0)
    checks.check(highest_ack <= version and seen <= version,
                 f"{what}: nothing acked ({highest_ack}) or seen by a subscriber ({seen}) is above the recovered "
                 f"version {version}")
    check_journal(checks, port, version, what)

    # Each subscriber resumes from what it saw; a marker action then shows that nothing else came first.
    previous = [(s, s.last) for s in subscribers]
    for subscriber in subscribers:
        subscriber.start(port)
    sessions = [s.sessions[-1] for s in subscribers]
    wait_for(lambda: all(session["connected"].is_set() for session in sessions), 10)
    client = HTTPClient(port)
    marker = f"marker-{round_number}"
    ledger.sending(marker)
    response, marker_version = post(client, marker)
    if response.status == 200:
        ledger.answered(marker, marker_version)
    checks.check(marker_version == version + 1, f"{what}: the next action gets version {version + 1} "
                                                 f"(got {response.status} {marker_version})")
    wait_for(lambda: all(s.last is not None and s.last >= version + 1 for s in subscribers), 5)
    for (subscriber, since), session in zip(previous, sessions):
        messages = list(session["messages"])
        label = f"{what}: subscriber {subscriber.index} ({subscriber.format}, since {since})"
        if since is None or since < version - HISTORY + 1:
            checks.note(f"{label}: too far behind to resume (history {HISTORY}); not judged")
            session["judged"] = False
            continue
        first = messages[0] if messages else None
        if since < version:
            resumed = first is not None and first[0] == "patch" and first[2] == since and first[1] >= version
        else:
            resumed = first is not None and first[1] == version + 1 and (
                (first[0] == "state" and first[4] is not False) or (first[0] == "patch" and first[2] == version))
        checks.check(resumed, f"{label}: resumed with one patch (nothing if up to date), not a snapshot "
                              f"(first messages {messages[:2]})")

    # Retries: every key in flight at the kill (its first outcome, or applied once now), then a sample of acked keys.
    before = read_counter(port)[1]
    applied_now = 0
    replay_problems = []
    for key in in_flight:
        response, retry_version = post(client, key)
        replayed = response.field("Idempotent-Replayed") == "true"
        if response.status != 200:
            replay_problems.append(f"{key}: {response.status}")
            continue
        if replayed:
            totals["applied_in_flight"] += 1
            if retry_version > version:
                replay_problems.append(f"{key}: replayed version {retry_version} > recovered {version}")
        else:
            totals["lost_in_flight"] += 1
            applied_now += 1
        ledger.answered(key, retry_version)
    after = read_counter(port)[1]
    checks.check(not replay_problems and after == before + applied_now,
                 f"{what}: {len(in_flight)} in-flight keys retried: {len(in_flight) - applied_now} replayed, "
                 f"{applied_now} applied now; count {before} -> {after} {replay_problems[:3]}")
    recent = newest_keys(ledger, f"-r{round_number - 1}-")
    sample = rng.sample(recent, min(20, len(recent))) + in_flight[:3] + [marker]
    wrong = retry_acked(client, ledger, sample)
    final = read_counter(port)[1]
    checks.check(not wrong and final == after,
                 f"{what}: {len(sample)} acked keys retried: Idempotent-Replayed with their first version, count "
                 f"{after} -> {final} ({len(wrong)} applied again: {wrong[:3]})")
    client.close()
    versions = ledger.versions()
    checks.check(not ledger.in_flight and versions == list(range(1, final + 1)),
                 f"{what}: the {len(versions)} actions applied hold exactly the versions 1...{final}, each once")


# MARK: interval


def interval_mode(checks, binary, rng, clients):
    directory = tempfile.mkdtemp(prefix="statehouse-crash-")
    interval_ms = 100
    server = Server(binary, durable_config(os.path.join(directory, "counter.sqlite"), "interval", intervalMs=interval_ms))
    ledger = Ledger()
    failures = len(checks.failed)
    subscriber = Subscriber(0, "state")
    try:
        server.start()
        _, _, epoch = read_counter(server.port)
        subscriber.start(server.port)
        for round_number in range(2):
            subscriber.sessions[-1]["connected"].wait(10)
            stop = threading.Event()
            threads = run_writers(server.port, round_number, clients, ledger, stop)
            delay = rng.uniform(0.3, 1.5)
            time.sleep(delay)  # the random moment of the kill
            killed_at = time.monotonic()
            status = server.kill()
            stop.set()
            join_all(threads + [subscriber.thread], 15)
            seen = subscriber.last
            what = f"interval restart {round_number + 1}"
            server.start()
            version, count, new_epoch = read_counter(server.port)
            attempted = ledger.attempted
            checks.check(status == -9, f"{what}: SIGKILL after {delay:.2f} s; the server started again")
            checks.check(version == count <= attempted,
                         f"{what}: version {version} == count {count} <= attempted {attempted}")
            # Acknowledged versions may be lost here, so the old positions may name other states: a new epoch.
            checks.check(new_epoch != epoch, f"{what}: a new epoch after the unclean stop ({epoch} -> {new_epoch})")
            epoch = new_epoch
            check_journal(checks, server.port, version, what)
            kept = [key for key in newest_keys(ledger, f"-r{round_number}-") if ledger.acked[key] <= version]
            lost = [key for key, value in ledger.acked.items() if value > version]
            oldest_lost = max((killed_at - ledger.acked_at[key] for key in lost), default=0.0)
            checks.note(f"{what}: {len(ledger.acked)} acked (highest {max(ledger.acked.values(), default=0)}), "
                        f"recovered {version}: {len(lost)} acked increments lost, the oldest acked "
                        f"{oldest_lost * 1000:.0f} ms before the kill (intervalMs {interval_ms}); subscriber had seen "
                        f"{seen}")
            # No subscriber is resumed from a position of the old epoch: each gets a snapshot (resumed:false), never
            # a patch from a version the store may no longer have, or have with another state.
            subscriber.start(server.port)
            session = subscriber.sessions[-1]
            session["connected"].wait(10)
            wait_for(lambda: session["messages"], 5)
            first = session["messages"][0] if session["messages"] else None
            checks.check(first is not None and first[0] == "state" and first[4] is False and first[1] == version,
                         f"{what}: the subscriber (had seen {seen}) gets a snapshot of version {version} in the new "
                         f"epoch (resumed:false), not a patch (first {first})")
            # The prefix: acked keys at or below the recovered version replay with their version, those above are gone.
            client = HTTPClient(server.port)
            wrong = retry_acked(client, ledger, rng.sample(kept, min(20, len(kept))))
            for key in sorted(lost, key=ledger.acked.get):
                response, retry_version = post(client, key)
                if response.status != 200 or response.field("Idempotent-Replayed") == "true":
                    wrong.append(f"{key} (lost): {response.status} replayed={response.field('Idempotent-Replayed')}")
                ledger.answered(key, retry_version)
            for key in list(ledger.in_flight):
                response, retry_version = post(client, key)
                ledger.answered(key, retry_version)
            client.close()
            final = read_counter(server.port)[1]
            versions = ledger.versions()
            checks.check(not wrong and versions == list(range(1, final + 1)),
                         f"{what}: the journal is a prefix of what was acked (kept keys replay, lost keys apply "
                         f"once anew; the {len(versions)} keys hold versions 1...{final}) {wrong[:3]}")
        checks.check(server.stop() == 0, "interval: SIGTERM ends the server with exit 0")
    finally:
        finish(checks, server, directory, failures)


# MARK: garbage


def garbage_database(checks, binary):
    directory = tempfile.mkdtemp(prefix="statehouse-crash-")
    try:
        path = os.path.join(directory, "garbage.sqlite")
        with open(path, "wb") as file:
            file.write(b"this is not an SQLite database\n" * 512)
        config_path = os.path.join(directory, "config.json")
        with open(config_path, "w") as file:
            json.dump(durable_config(path, "commit"), file)
        try:
            result = subprocess.run([binary, "serve", "--config", config_path, "--port", "0"],
                                    capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            checks.check(False, "garbage: the server stops within 20 s on a garbage database (it kept running)")
            return
        lines = [line for line in result.stderr.decode(errors="replace").splitlines() if line.strip()]
        checks.check(result.returncode == 2 and b"listening" not in result.stdout,
                     f"garbage: exit {result.returncode} (2 expected) before listening")
        checks.check(len(lines) == 1 and path in lines[0],
                     f"garbage: one line on stderr naming the file ({lines[:3]})")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


MODES = ["commit", "interval", "garbage"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/statehouse")
    parser.add_argument("--seed", type=int, default=None, help="the random kill moments (default: from the clock)")
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--subscribers", type=int, default=4)
    parser.add_argument("--only", nargs="*", choices=MODES)
    parser.add_argument("--commit-sync", default="commit", choices=["commit", "interval", "off"],
                        help="the sync mode the commit checks run with (interval shows them failing: acks are lost)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int(time.time() * 1000) % 1_000_000
    print(f"crash: seed {seed} (again: --seed {seed})", flush=True)
    rng = random.Random(seed)
    checks = Checks()
    runs = {
        "commit": lambda: commit_mode(checks, args.binary, rng, args.kills, args.clients, args.subscribers,
                                      args.commit_sync),
        "interval": lambda: interval_mode(checks, args.binary, rng, args.clients),
        "garbage": lambda: garbage_database(checks, args.binary),
    }
    sys.exit(run_parts(checks, runs, args.only or MODES, "crash", f"seed {seed}"))


if __name__ == "__main__":
    main()
