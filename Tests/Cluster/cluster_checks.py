"""The cluster test's judgements as pure functions of recorded data (no sockets, no processes), so `--self-test` can
feed them hand-made logs, acks, subscriber histories and timelines and see each fault caught.

A store's log, as read from Redis (`XRANGE {s:NAME}:log - +`): [(entry id "VERSION-0", {"o": origin, "a": action
JSON, "t": fencing token, "k": idempotency key, "ms": time})], oldest first.
"""

import bisect
import heapq
import json


def parse_entry(entry_id, fields):
    """One log entry as a dict: version, seq (the part after '-'), origin, action (decoded, or None), token (int or
    None), key (or None); `error` says what could not be read."""
    parsed = {"id": entry_id, "version": None, "seq": None, "origin": fields.get("o"), "action": None,
              "token": None, "key": fields.get("k"), "error": None}
    try:
        version, seq = entry_id.split("-", 1)
        parsed["version"], parsed["seq"] = int(version), int(seq)
    except ValueError:
        parsed["error"] = f"entry id {entry_id!r} is not VERSION-0"
    try:
        parsed["action"] = json.loads(fields["a"]) if "a" in fields else None
    except ValueError:
        parsed["error"] = f"entry {entry_id}: field a is not JSON ({fields['a'][:60]!r})"
    try:
        parsed["token"] = int(fields["t"]) if "t" in fields else None
    except ValueError:
        parsed["error"] = f"entry {entry_id}: field t is not an integer ({fields['t']!r})"
    return parsed


def log_problems(log, fence=None):
    """What is wrong with one store's log: versions not exactly 1, 2, ..., N in order (a gap, a repeat, a version out
    of order, an id not VERSION-0); an entry without a key or a token, or a key twice; a fencing token lower than the
    one before it, or above the store's fence counter (when `fence` is given). Returns (problems, entries parsed,
    {key: version})."""
    problems = []
    entries = [parse_entry(entry_id, fields) for entry_id, fields in log]
    keys = {}
    previous_version = 0
    previous_token = None
    for entry in entries:
        if entry["error"]:
            problems.append(entry["error"])
        version = entry["version"]
        if version is not None:
            if version == previous_version:
                problems.append(f"version {version} repeated")
            elif version < previous_version:
                problems.append(f"version {version} after {previous_version} (out of order)")
            elif version > previous_version + 1:
                problems.append(f"gap: version {version} after {previous_version} "
                                f"(missing {previous_version + 1}...{version - 1})")
            if entry["seq"] not in (None, 0):
                problems.append(f"entry id {entry['id']} (sequence part not 0)")
            previous_version = max(previous_version, version)
        token = entry["token"]
        if token is None:
            problems.append(f"version {version} has no fencing token t")
        else:
            if previous_token is not None and token < previous_token:
                problems.append(f"fencing token decreases at version {version}: {previous_token} -> {token}")
            if fence is not None and token > fence:
                problems.append(f"fencing token {token} at version {version} is above the fence counter {fence}")
            previous_token = token if previous_token is None else max(previous_token, token)
        key = entry["key"]
        if key is None:
            problems.append(f"version {version} has no idempotency key k (every action sent had one)")
        elif key in keys:
            problems.append(f"key {key} twice: versions {keys[key]} and {version}")
        else:
            keys[key] = version
    return problems, entries, keys


def as_fsa(action):
    """A journaled action as a Flux Standard Action: the log holds it as Swift's synthesized Codable writes it
    ({"add":{"amount":5}}, as the SQLite journal does, docs/cluster.md); an FSA ({"type":"add",...}) is kept."""
    if isinstance(action, dict) and len(action) == 1 and "type" not in action:
        (kind, payload), = action.items()
        return {"type": kind, "payload": payload} if payload else {"type": kind}
    return action


def counter_counts(entries):
    """{version: the Counter's count right after it}, reducing the log's actions from {"count": 0}; a version whose
    action is not one the Counter reduces maps to None, and so does every later one."""
    counts = {0: 0}
    count = 0
    for entry in entries:
        action = as_fsa(entry["action"])
        kind = action.get("type") if isinstance(action, dict) else None
        if entry["origin"] == "reset":  # a store reset: the initial state again
            count = 0
        elif count is None:
            pass
        elif kind == "increment":
            count += 1
        elif kind == "decrement":
            count -= 1
        elif kind == "add" and isinstance(action.get("payload"), dict):
            count += int(action["payload"].get("amount", 0))
        elif kind == "reset":
            count = 0
        else:
            count = None
        if entry["version"] is not None:
            counts[entry["version"]] = count
    return counts


def ack_problems(acked, log_keys, sent):
    """Acks against the log: every acked key is in the log at the version its ack gave; every key in the log was
    sent (`sent`: every key posted to this store, acked or not). `acked`: {key: version}; `log_keys`: {key: version}."""
    problems = []
    for key, version in acked.items():
        where = log_keys.get(key)
        if where is None:
            problems.append(f"acked key {key} (version {version}) is not in the log")
        elif where != version:
            problems.append(f"key {key} acked with version {version}, in the log at version {where}")
    for key, version in log_keys.items():
        if key not in sent:
            problems.append(f"key {key} at version {version} was never sent")
    return problems


def subscriber_problems(sessions, counts, epoch):
    """One subscriber's history against the log. `sessions`: its connections in order, each with "messages":
    [(kind "state"|"patch", version, base, epoch, resumed, count)]. Versions only grow across all sessions (a
    snapshot with "resumed":false may repeat the version held, first in a session); a patch starts from the version
    held; every message is of `epoch`; the count at each version is the log's (`counts`)."""
    problems = []
    held = None
    for number, session in enumerate(sessions):
        for index, (kind, version, base, message_epoch, resumed, count) in enumerate(session["messages"]):
            where = f"session {number} ({session.get('node', '?')})"
            if message_epoch != epoch:
                problems.append(f"{where}: epoch {message_epoch} at version {version} (the store's is {epoch})")
            if kind == "patch" and base != held:
                problems.append(f"{where}: patch {base}->{version} while holding {held}")
            if held is not None and version is not None and version <= held:
                repeat_snapshot = index == 0 and kind == "state" and resumed is False and version == held
                if not repeat_snapshot:
                    problems.append(f"{where}: version {version} after {held}")
            if version not in counts:
                problems.append(f"{where}: version {version} is not in the log")
            elif counts[version] is not None and count != counts[version]:
                problems.append(f"{where}: count {count} at version {version}, the log's is {counts[version]}")
            if version is not None:
                held = version if held is None else max(held, version)
    return problems


def unavailable_intervals(actions, end):
    """The intervals in which a store had an action pending and answered none: for each ack at time n, from the later
    of the previous ack and the earliest first send among the actions pending at n, to n; for each action never
    acked, from the later of its first send and the last ack before it gave up, to when it gave up (`end` if never).
    `actions`: [(first_sent, acked_at or None, gave_up_at or None)] in seconds. Returns [(start, end)]."""
    acks = sorted(acked for _, acked, _ in actions if acked is not None)
    by_start = sorted(actions, key=lambda action: action[0])
    pending = []  # (first_sent, acked_at or inf): started before the current ack; popped once acked before it
    next_start = 0
    previous = None
    intervals = []
    for ack in acks:
        while next_start < len(by_start) and by_start[next_start][0] <= ack:
            first_sent, acked, _ = by_start[next_start]
            heapq.heappush(pending, (first_sent, acked if acked is not None else float("inf")))
            next_start += 1
        while pending and pending[0][1] < ack:
            heapq.heappop(pending)
        earliest = pending[0][0] if pending else ack
        intervals.append((earliest if previous is None else max(previous, earliest), ack))
        previous = ack
    for first_sent, acked, gave_up in actions:
        if acked is None:
            stop = gave_up if gave_up is not None else end
            before = bisect.bisect_right(acks, stop) - 1
            start = max(first_sent, acks[before]) if before >= 0 else first_sent
            intervals.append((start, max(start, stop)))
    return intervals


def classify(interval, windows):
    """The label of the first window ((label, start, end), in order of priority) the interval overlaps, else
    "steady"."""
    start, stop = interval
    for label, window_start, window_end in windows:
        if start < window_end and stop > window_start:
            return label
    return "steady"


def longest_by_label(intervals, windows, labels):
    """{label: (longest duration in s, its (start, end) or None)} for each label, 0.0 when none."""
    longest = {label: (0.0, None) for label in labels}
    for interval in intervals:
        label = classify(interval, windows)
        duration = interval[1] - interval[0]
        if duration > longest.setdefault(label, (0.0, None))[0]:
            longest[label] = (duration, interval)
    return longest
