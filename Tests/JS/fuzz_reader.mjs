// A deterministic, time-bounded mutation fuzzer of the browser client's message reading (clients/js/statehouse.js),
// node and its standard library only (libFuzzer cannot drive JavaScript).
//
//   node Tests/JS/fuzz_reader.mjs [seconds=60] [seed]     fuzz; prints the seconds and the seed it runs with
//   node Tests/JS/fuzz_reader.mjs --replay FILE...         run saved sequences once (exit 1 when one fails)
//
// The client runs for real, on fakes of WebSocket, EventSource, fetch and the timers installed before the module is
// loaded: a message goes in through the very handler the browser calls (the socket's `onmessage`, or the
// `EventSource` listener of its event type over SSE). A sequence is lines, as in Fuzz/corpus/client-js/ (the seeds,
// written by Fuzz/make-corpus-client.py): a server message per line, or `!` (the connection drops; the retry timer
// fires and a new one opens), `!+` (one more `send()`), `~` (two minutes pass: ack timeouts fire), `@<status> <body>`
// (the answer to the SSE transport's pending POST); a first line `#sse` runs it over SSE, else over the WebSocket.
// Each client watches `counter` (sub s1) and `todos` at `/items` (s2) and has sent two actions (refs a1, a2).
//
// Each input is a seed mutated by byte-level edits (flip, insert, delete, splice) and JSON-aware ones (a value
// replaced by one of another type, huge/negative/fractional versions, deep nesting, missing or extra fields, long
// strings, patches with bad pointers, duplicated, dropped or swapped lines). Checked after every line:
// - nothing throws out of a handler, a timer or a promise (no uncaught exception, no unhandled rejection);
// - what a `subscribe` callback sees is a JSON value the server could have sent (plain objects, arrays, strings,
//   numbers as JSON.parse reads them, booleans, null), at a version that is a non-negative safe integer, strictly increasing within an
//   epoch; a snapshot is the `state` of the message just read; a patched state is the previous one with the
//   message's ops applied, from its `base`; the store holds exactly what its callbacks saw last (a patch that does
//   not fit or fails changes nothing, and asks for a snapshot: `resyncing`);
// - events are objects; every status change is a transition of TRANSITIONS; every message written is a JSON object;
// - a `send()` resolves once with `{version, replayed}` (a safe integer and a boolean: on the WebSocket, the version
//   of the ack naming its ref) or rejects with a StatehouseError whose code and message are non-empty strings; after
//   `close()` every one has settled; `store.error` is a StatehouseError too.
// A failure prints the seed, the input's number and the sequence, and saves the sequence under Fuzz/crashes/.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CORPUS = join(ROOT, 'Fuzz', 'corpus', 'client-js');
const CRASHES = join(ROOT, 'Fuzz', 'crashes');

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness

/** xorshift128+ on two 32-bit halves: the same seed gives the same inputs. */
function makeRandom(seed) {
  let a = (seed >>> 0) ^ 0x9e3779b9;
  let b = Math.imul(seed >>> 0, 0x85ebca6b) ^ 0xc2b2ae35;
  if (a === 0 && b === 0) a = 1;
  const next = () => {
    let t = a ^ (a << 11);
    a = b;
    b = (b ^ (b >>> 19)) ^ (t ^ (t >>> 8));
    return (b >>> 0) / 4294967296;
  };
  next.int = (n) => Math.floor(next() * n);
  next.pick = (items) => items[next.int(items.length)];
  next.chance = (p) => next() < p;
  return next;
}

// ---------------------------------------------------------------------------------------------------------------
// Fakes of the browser's transports and timers (installed before the module loads)

const world = {
  clock: 0,
  timers: new Map(),  // id → {at, fn}
  nextTimer: 1,
  sockets: [],
  sources: [],
  posts: [],  // {resolve} of fetch calls waiting for an answer
  written: [],
  failures: [],
  /** What the inputs reached, over the whole run (printed at the end: the mutations get somewhere). */
  reached: { snapshots: 0, patches: 0, resyncs: 0, acks: 0, rejections: {}, events: 0, storeErrors: 0 },
};

globalThis.setTimeout = (fn, ms = 0) => {
  const id = world.nextTimer++;
  world.timers.set(id, { at: world.clock + Math.max(0, Number(ms) || 0), fn });
  return id;
};
globalThis.clearTimeout = (id) => { world.timers.delete(id); };

/** Advances the clock by `ms`, running every timer due by then, in order (those they set too). */
function advance(ms) {
  const until = world.clock + ms;
  for (;;) {
    let due;
    for (const [id, timer] of world.timers) if (timer.at <= until && (!due || timer.at < due[1].at)) due = [id, timer];
    if (!due) break;
    world.timers.delete(due[0]);
    world.clock = Math.max(world.clock, due[1].at);
    try {
      due[1].fn();
    } catch (error) {
      world.failures.push(`a timer threw: ${error?.stack ?? error}`);
    }
  }
  world.clock = until;
}

class FakeWebSocket {
  constructor(url, protocols) {
    this.url = url;
    this.protocols = protocols;
    this.closed = false;
    world.sockets.push(this);
  }

  send(text) {
    if (this.closed) world.failures.push('a message was written to a closed WebSocket');
    world.written.push(text);
  }

  close() { this.closed = true; }
}

class FakeEventSource {
  constructor(url) {
    this.url = url;
    this.closed = false;
    this.listeners = new Map();
    world.sources.push(this);
  }

  addEventListener(type, fn) { this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]); }

  dispatch(type, data) { for (const fn of this.listeners.get(type) ?? []) fn({ type, data }); }

  close() { this.closed = true; }
}

globalThis.WebSocket = FakeWebSocket;
globalThis.EventSource = FakeEventSource;
globalThis.fetch = (url, init) => new Promise((resolve) => {
  world.written.push(init?.body ?? '{}');
  world.posts.push({ url, resolve });
});

/** The fetch Response for `@<status> <body>`. */
function fakeResponse(status, body) {
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: { get: (name) => (name.toLowerCase() === 'idempotent-replayed' ? (status === 200 ? 'true' : null) : null) },
    json: async () => JSON.parse(body),
  };
}

const { connect, applyPatch, StatehouseError, TRANSITIONS } = await import('../../clients/js/statehouse.js');

// While a sequence runs, an escaped error is its failure; outside one (a bug of this script), it ends the process.
world.running = false;
const escaped = (what) => (error) => {
  if (!world.running) {
    console.error(`fuzz_reader: ${what} outside a sequence:`, error);
    process.exit(2);
  }
  world.failures.push(`${what}: ${error?.stack ?? error}`);
};
process.on('unhandledRejection', escaped('unhandled rejection'));
process.on('uncaughtException', escaped('uncaught exception'));

// ---------------------------------------------------------------------------------------------------------------
// Checks

/** The codes the client gives rejections of its own (docs/clients.md), and the defaults it puts for a server's. */
const OWN_CODES = ['closed', 'queue_full', 'timeout', 'patch_failed', 'error', 'http_error'];
const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const isVersion = (value) => Number.isSafeInteger(value) && value >= 0;

/** Whether `value` is a JSON value as JSON.parse gives it, checked without recursion (states may be deep). */
function isJSON(root) {
  const stack = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      // JSON.parse reads a number beyond a double (`1e999`, valid JSON, RFC 8259 §6) as ±Infinity; never NaN.
      if (Number.isNaN(value)) return false;
      continue;
    }
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) return false;
      for (let i = 0; i < value.length; i += 1) {
        if (!(i in value)) return false;
        stack.push(value[i]);
      }
      continue;
    }
    if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
    if (Object.getOwnPropertySymbols(value).length > 0) return false;
    for (const key of Object.keys(value)) stack.push(value[key]);
  }
  return true;
}

/** JSON text of `value`, or undefined when it is too deep for JSON.stringify. */
function text(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function checkError(error, what) {
  if (!(error instanceof StatehouseError)) return `${what} is not a StatehouseError: ${error?.stack ?? error}`;
  if (typeof error.code !== 'string' || error.code === '') return `${what} has the code ${JSON.stringify(error.code)}`;
  if (typeof error.message !== 'string' || error.message === '') return `${what} has no message`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// One sequence

/** Runs one sequence of lines; returns the failures (empty when every check held). */
async function run(lines, transport) {
  world.clock = 0;
  world.timers.clear();
  world.sockets = [];
  world.sources = [];
  world.posts = [];
  world.written = [];
  world.failures = [];
  world.running = true;
  const failures = world.failures;
  const fail = (message) => failures.push(message);
  const settleAll = async () => { for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve)); };

  const client = connect('http://127.0.0.1:1/', {
    transport, maxQueue: 4, ackTimeoutMs: 60000, backoff: { initialMs: 1, maxMs: 4 },
  });
  let status = client.status;
  client.onStatus((next) => {
    if (!Object.values(TRANSITIONS[status] ?? {}).includes(next)) fail(`status ${status} → ${next} is no transition`);
    status = next;
  });
  let current;  // the message being read
  const stores = [client.store('counter'), client.store('todos', { path: '/items' })];
  const seen = stores.map(() => undefined);  // {epoch, version, json, copy} of the last callback
  stores.forEach((store, index) => {
    store.subscribe((state, info) => {
      const where = `store ${store.name}`;
      if (!isPlainObject(info) || !isVersion(info.version) || typeof info.epoch !== 'string') {
        return fail(`${where}: a callback at version ${text(info?.version)} of epoch ${text(info?.epoch)}`);
      }
      if (!isJSON(state)) return fail(`${where}: a callback with a state that is not JSON: ${String(state)}`);
      const previous = seen[index];
      if (previous && previous.epoch === info.epoch && info.version <= previous.version) {
        fail(`${where}: version ${previous.version} then ${info.version} in epoch ${info.epoch}`);
      }
      if (!current) fail(`${where}: a callback without a server message`);
      else if (info.patch) {
        if (current.type !== 'patch' || !previous || previous.epoch !== info.epoch || current.base !== previous.version) {
          fail(`${where}: a patched state off its base (${previous?.version} of ${previous?.epoch})`);
        } else if (previous.copy !== undefined) {
          let expected;
          try { expected = applyPatch(previous.copy, info.patch); } catch (error) { fail(`${where}: its patch does not apply to the previous state: ${error}`); }
          const want = text(expected);
          const got = text(state);  // either may be too deep for JSON.stringify here
          if (want !== undefined && got !== undefined && want !== got) fail(`${where}: patched state ${text(state)}, not ${want}`);
        }
      } else if (current.type !== 'state' || current.version !== info.version || current.epoch !== info.epoch) {
        fail(`${where}: a snapshot at a position that is not the message's`);
      } else {
        const want = text(current.state);
        const got = text(state);
        if (want !== undefined && got !== undefined && want !== got) fail(`${where}: snapshot ${text(state)}, not the message's ${want}`);
      }
      let copy;
      try { copy = structuredClone(state); } catch { copy = undefined; }
      seen[index] = { epoch: info.epoch, version: info.version, json: text(state), copy };
      if (info.patch) world.reached.patches += 1; else world.reached.snapshots += 1;
      return undefined;
    });
    store.onEvent((event) => {
      world.reached.events += 1;
      if (!isPlainObject(event) || !isJSON(event)) fail(`store ${store.name}: an event ${text(event)}`);
    });
  });

  const actions = [];
  const send = (n) => {
    const entry = { n, settled: false };
    actions.push(entry);
    stores[0].send({ type: 'increment' }, { id: `k${n}` }).then((outcome) => {
      entry.settled = true;
      world.reached.acks += 1;
      if (!isPlainObject(outcome) || !isVersion(outcome.version) || typeof outcome.replayed !== 'boolean') {
        return fail(`send ${n} resolved with ${text(outcome)}`);
      }
      if (transport === 'websocket' && (current?.type !== 'ack' || current.ref !== `a${n}` || current.version !== outcome.version)) {
        fail(`send ${n} resolved by ${text(current)}`);
      }
      return undefined;
    }, (error) => {
      entry.settled = true;
      // The client's own codes by name; the server's (as sent, mutated too) together.
      const code = OWN_CODES.includes(error?.code) ? error.code : 'server';
      world.reached.rejections[code] = (world.reached.rejections[code] ?? 0) + 1;
      const problem = checkError(error, `send ${n}'s rejection`);
      if (problem) fail(problem);
    });
  };
  send(1);
  send(2);
  let sent = 2;

  const openTransport = () => {
    if (transport === 'websocket') world.sockets.at(-1)?.onopen?.();
    else for (const source of world.sources) if (!source.closed) source.onopen?.();
  };
  const readWritten = () => {
    for (const written of world.written) {
      let message;
      try { message = JSON.parse(written); } catch { message = undefined; }
      if (!isPlainObject(message)) fail(`the client wrote ${written}`);
    }
    world.written = [];
  };
  openTransport();
  await settleAll();

  for (const line of lines) {
    current = undefined;
    if (line === '!') {
      if (transport === 'websocket') world.sockets.at(-1)?.onclose?.();
      else world.sources.find((source) => !source.closed)?.onerror?.();
      advance(10);
      openTransport();
    } else if (line === '!+') {
      sent += 1;
      send(sent);
    } else if (line === '~') {
      advance(120000);
    } else if (line.startsWith('@')) {
      const post = world.posts.shift();
      const space = line.indexOf(' ');
      const status = Number.parseInt(line.slice(1, space < 0 ? undefined : space), 10);
      if (post) post.resolve(fakeResponse(Number.isInteger(status) && status >= 100 && status <= 599 ? status : 200, space < 0 ? '' : line.slice(space + 1)));
    } else {
      try { current = JSON.parse(line); } catch { current = undefined; }
      // Over SSE a store's own EventSource carries its messages (`sub` says which here: s2 the second, else the first).
      const sub = isPlainObject(current) ? current.sub : undefined;
      const store = transport === 'websocket' ? client.storeBySub(sub) : stores[sub === 's2' ? 1 : 0];
      const index = stores.indexOf(store);
      const before = store && { resyncing: store.resyncRequested, epoch: store.epoch, version: store.version, live: client.stores.has(store) };
      try {
        if (transport === 'websocket') {
          world.sockets.at(-1)?.onmessage?.({ data: line });
        } else {
          const type = isPlainObject(current) && typeof current.type === 'string' ? current.type : 'state';
          client.transport?.sources?.get(store)?.dispatch(type, line);
        }
      } catch (error) {
        fail(`reading ${line.slice(0, 200)} threw: ${error?.stack ?? error}`);
      }
      // A patch that changed nothing, for a store that was neither asking for a snapshot nor past that version,
      // asks for one.
      if (store && before.live && current?.type === 'patch' && seen[index]?.version === before.version
        && !before.resyncing && !(current.epoch === before.epoch && isVersion(current.version) && current.version <= before.version)
        && store.version === before.version && client.stores.has(store) && !store.resyncRequested) {
        fail(`store ${store.name}: a patch that did not apply did not ask for a snapshot`);
      }
    }
    await settleAll();
    readWritten();
    stores.forEach((store, index) => {
      const last = seen[index];
      if (store.resyncRequested) world.reached.resyncs += 1;
      if (store.error !== undefined) {
        world.reached.storeErrors += 1;
        const problem = checkError(store.error, `store ${store.name}'s error`);
        if (problem) fail(problem);
      }
      if (!last) {
        if (store.state !== undefined || store.epoch !== undefined) fail(`store ${store.name} holds a state no callback saw`);
        return;
      }
      if (store.epoch !== last.epoch || store.version !== last.version) {
        fail(`store ${store.name} holds version ${store.version} of ${store.epoch}, its callbacks saw ${last.version} of ${last.epoch}`);
      }
      const now = text(store.state);
      if (now !== undefined && last.json !== undefined && now !== last.json) fail(`store ${store.name} holds a state its callbacks never saw: ${now.slice(0, 200)}`);
    });
    if (failures.length > 0) break;
  }
  client.close();
  await settleAll();
  readWritten();
  for (const entry of actions) if (!entry.settled) fail(`send ${entry.n} never settled after close()`);
  world.running = false;
  return failures;
}

// ---------------------------------------------------------------------------------------------------------------
// Mutations

const FIELDS = ['sub', 'type', 'store', 'epoch', 'version', 'base', 'ops', 'state', 'ref', 'code', 'message', 'event',
  'replayed', 'settled', 'resumed', 'path', '__proto__', 'constructor', 'op', 'from', 'value'];
const TYPES = ['state', 'patch', 'ack', 'error', 'event', 'deleted', 'unsubscribed', 'subscribed', 'resync', ''];
const POINTERS = ['', '/', '/count', '/items/0', '/items/-', '/-', '/0', '/01', '/a~2', '/a~', 'count', '/__proto__',
  '/__proto__/x', '/constructor/prototype', '/x/y/z', '/items/99999999999999999999', '/~1~0', `/${'a'.repeat(300)}`];
const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test', 'ADD', '', 'noop'];
const IDS = ['s1', 's2', 's3', 's0', 's01', 's+1', 'S1', 'a1', 'a2', 'a3', 'a01', '1', ''];

function deep(random) {
  const depth = random.pick([10, 100, 1000, 5000]);
  const open = random.chance(0.5) ? '[' : '{"a":';
  const close = open === '[' ? ']' : '}';
  return JSON.parse(open.repeat(depth) + '0' + close.repeat(depth));
}

/** A value of any JSON type, often one a field does not expect. */
function anyValue(random) {
  switch (random.int(22)) {
    case 0: return null;
    case 1: return random.chance(0.5);
    case 2: return 0;
    case 3: return -1;
    case 4: return 1.5;
    case 5: return 1e308;
    case 6: return 2 ** 53;
    case 7: return 2 ** 53 + 2;
    case 8: return 18446744073709551615;
    case 9: return -0;
    case 10: return '';
    case 11: return 'x'.repeat(random.pick([1, 100, 70000]));
    case 12: return String(random.int(10));
    case 13: return [];
    case 14: return {};
    case 15: return deep(random);
    case 16: return random.pick(IDS);
    case 17: return random.pick(TYPES);
    case 18: return [{ op: random.pick(OPS), path: random.pick(POINTERS), value: random.int(5) }];
    case 19: return { type: 'x', payload: random.int(3) };
    case 20: return random.int(12);
    default: return '\ud800';
  }
}

/** Every object or array inside `value` (bounded), with the root. */
function containers(value, out = [], depth = 0) {
  if (out.length > 64 || depth > 12 || value === null || typeof value !== 'object') return out;
  out.push(value);
  for (const item of Array.isArray(value) ? value : Object.values(value)) containers(item, out, depth + 1);
  return out;
}

/** One JSON-aware edit of a parsed message; false when it has nothing to edit. */
function mutateJSON(message, random) {
  const targets = containers(message);
  if (targets.length === 0) return false;
  const target = random.pick(targets);
  const keys = Array.isArray(target) ? target.map((_, index) => index) : Object.keys(target);
  const key = keys.length > 0 ? random.pick(keys) : undefined;
  const set = (k, v) => {
    if (Array.isArray(target)) target[k] = v;
    else Object.defineProperty(target, k, { value: v, writable: true, enumerable: true, configurable: true });
  };
  switch (random.int(12)) {
    case 0: case 1: if (key === undefined) return false; set(key, anyValue(random)); return true;
    case 2: if (key === undefined) return false;
      if (Array.isArray(target)) target.splice(key, 1); else delete target[key];
      return true;
    case 3: set(Array.isArray(target) ? target.length : random.pick(FIELDS), anyValue(random)); return true;
    case 4: {  // versions: near, far, or not versions at all
      if (!isPlainObject(target)) return false;
      const field = random.pick(['version', 'base']);
      const now = Number.isSafeInteger(target[field]) ? target[field] : 1;
      set(field, random.pick([now + 1, now - 1, now + 2, now, 0, -now, now + 0.5, 2 ** 53 + 1, 1e300, String(now)]));
      return true;
    }
    case 5: if (!isPlainObject(target)) return false; set('path', random.pick(POINTERS)); set('from', random.pick(POINTERS)); return true;
    case 6: if (!isPlainObject(target)) return false; set('op', random.pick(OPS)); return true;
    case 7: if (!isPlainObject(target)) return false; set(random.pick(['sub', 'ref']), random.pick(IDS)); return true;
    case 8: if (!isPlainObject(target)) return false; set('type', random.pick(TYPES)); return true;
    case 9: if (!isPlainObject(target)) return false; set('epoch', random.pick(['5f2a9c0e1b7d4e63', '0123456789abcdef', '', 5, null])); return true;
    case 10: if (!isPlainObject(target)) return false;
      set('ops', Array.from({ length: 1 + random.int(3) }, () => ({ op: random.pick(OPS), path: random.pick(POINTERS), from: random.pick(POINTERS), value: anyValue(random) })));
      return true;
    default: if (key === undefined) return false; set(key, deep(random)); return true;
  }
}

const ALPHABET = '{}[]":,0123456789-.eE \\/~nultrfasx\u00e9\ufeff\ud800\udc00\n';

/** One byte-level edit of a line (code units: a WebSocket text may hold anything a JS string can). */
function mutateText(line, random, other) {
  const at = random.int(line.length + 1);
  switch (random.int(5)) {
    case 0: {  // flip a bit of one code unit
      if (line.length === 0) return line;
      const i = random.int(line.length);
      return line.slice(0, i) + String.fromCharCode(line.charCodeAt(i) ^ (1 << random.int(8))) + line.slice(i + 1);
    }
    case 1: return line.slice(0, at) + random.pick(ALPHABET) + line.slice(at);
    case 2: return line.slice(0, at) + line.slice(at + 1 + random.int(8));
    case 3: {  // splice a piece of another line in
      const from = random.int(other.length + 1);
      return line.slice(0, at) + other.slice(from, from + 1 + random.int(40)) + line.slice(at);
    }
    default: return line.slice(0, at) + line.slice(at, at + 1 + random.int(20)).repeat(2) + line.slice(at);
  }
}

/** A mutated copy of a sequence (several edits). */
function mutate(sequence, seeds, random) {
  const lines = [...sequence.lines];
  let transport = sequence.transport;
  const edits = 1 + random.int(4);
  for (let e = 0; e < edits; e += 1) {
    const donor = random.pick(seeds).lines;
    const i = random.int(Math.max(lines.length, 1));
    switch (random.int(10)) {
      case 0: case 1: case 2: {  // JSON-aware
        let message;
        try { message = JSON.parse(lines[i] ?? ''); } catch { message = undefined; }
        if (message !== null && typeof message === 'object' && mutateJSON(message, random)) lines[i] = text(message) ?? lines[i];
        break;
      }
      case 3: case 4:
        lines[i] = mutateText(lines[i] ?? '', random, random.pick(donor) ?? '');
        break;
      case 5: lines.splice(i, 0, random.pick(donor) ?? ''); break;
      case 6: if (lines.length > 1) lines.splice(i, 1); break;
      case 7: lines.splice(i, 0, lines[i] ?? ''); break;
      case 8: lines.splice(i, 0, random.pick(['!', '!+', '~', '@200 {"version":3}', '@500 ', `@${random.pick([200, 201, 400, 404, 409, 503])} ${text(anyValue(random)) ?? 'null'}`])); break;
      default: {
        const j = random.int(Math.max(lines.length, 1));
        [lines[i], lines[j]] = [lines[j], lines[i]];
        if (random.chance(0.1)) transport = transport === 'sse' ? 'websocket' : 'sse';
      }
    }
  }
  return { lines: lines.filter((line) => line !== undefined).slice(0, 64), transport };
}

// ---------------------------------------------------------------------------------------------------------------
// Corpus, reports, the loop

function parseSequence(content) {
  const lines = content.split('\n');
  let transport = 'websocket';
  if (lines[0] === '#sse' || lines[0] === '#websocket') transport = lines.shift().slice(1);
  return { lines, transport };
}

function formatSequence({ lines, transport }) {
  return [`#${transport}`, ...lines].join('\n');
}

const clip = (line) => (line.length > 400 ? `${line.slice(0, 400)}… (${line.length} chars)` : line);

function report(failures, sequence, label) {
  const content = formatSequence(sequence);
  const name = `client-js-crash-${createHash('sha1').update(content).digest('hex')}`;
  mkdirSync(CRASHES, { recursive: true });
  writeFileSync(join(CRASHES, name), content);
  console.log(`fuzz_reader: FAILED ${label}`);
  for (const failure of failures.slice(0, 5)) console.log(`  ${clip(failure)}`);
  console.log(`  the sequence (${sequence.transport}):`);
  for (const line of sequence.lines) console.log(`    ${clip(line)}`);
  console.log(`  saved as Fuzz/crashes/${name} (replay: node Tests/JS/fuzz_reader.mjs --replay Fuzz/crashes/${name})`);
}

async function replay(files) {
  let failed = 0;
  for (const file of files) {
    const sequence = parseSequence(readFileSync(file, 'utf8'));
    const failures = await run(sequence.lines, sequence.transport);
    if (failures.length > 0) {
      failed += 1;
      console.log(`fuzz_reader: ${file} FAILED`);
      for (const failure of failures.slice(0, 5)) console.log(`  ${clip(failure)}`);
    } else {
      console.log(`fuzz_reader: ${file} ok`);
    }
  }
  return failed === 0 ? 0 : 1;
}

async function fuzz(seconds, seed) {
  console.log(`fuzz_reader: ${seconds} s, seed ${seed} (node Tests/JS/fuzz_reader.mjs ${seconds} ${seed})`);
  const random = makeRandom(seed);
  Math.random = makeRandom(seed ^ 0x5bd1e995);  // the client's backoff jitter
  const seeds = readdirSync(CORPUS).sort().map((name) => parseSequence(readFileSync(join(CORPUS, name), 'utf8')));
  for (const base of [...seeds]) seeds.push({ lines: base.lines, transport: base.transport === 'sse' ? 'websocket' : 'sse' });
  const started = Date.now();
  let inputs = 0;
  let lines = 0;
  // The seeds themselves first, then mutations until the time is up.
  for (let i = 0; Date.now() - started < seconds * 1000; i += 1) {
    const sequence = i < seeds.length ? seeds[i] : mutate(random.pick(seeds), seeds, random);
    const failures = await run(sequence.lines, sequence.transport);
    inputs += 1;
    lines += sequence.lines.length;
    if (failures.length > 0) {
      report(failures, sequence, `on input ${i} of seed ${seed}`);
      return 1;
    }
  }
  const elapsed = (Date.now() - started) / 1000;
  console.log(`fuzz_reader: DONE ${inputs} sequences (${lines} lines) in ${elapsed.toFixed(0)} s, ${Math.round(inputs / elapsed)}/s, `
    + `seed ${seed}, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
  const { rejections, ...counts } = world.reached;
  console.log(`fuzz_reader: reached (callbacks, lines resyncing or with a store error, settled sends): ${text(counts)}, `
    + `rejections ${text(rejections)}`);
  return 0;
}

const args = process.argv.slice(2);
if (args[0] === '--replay') {
  process.exitCode = await replay(args.slice(1));
} else {
  const seconds = Number(args[0] ?? 60);
  const seed = args[1] !== undefined ? Number(args[1]) >>> 0 : (Date.now() ^ process.pid) >>> 0;
  if (!Number.isFinite(seconds) || seconds <= 0) {
    console.error('usage: node Tests/JS/fuzz_reader.mjs [seconds] [seed] | --replay FILE...');
    process.exitCode = 2;
  } else {
    process.exitCode = await fuzz(seconds, seed);
  }
}
