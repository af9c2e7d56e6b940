// statehouse.js: the browser client of a Statehouse server (docs/clients.md, "Browser: statehouse.js").
//
// One ES module, no build step, no dependency. The server serves this very file at GET /client/statehouse.js.
// Wire protocol: docs/protocol.md (`/ws` multiplexing, patches, resume with epoch+since, acks, idempotency ids).
//
//   import { connect } from 'http://127.0.0.1:8080/client/statehouse.js';
//   const client = connect();                       // the server the module came from
//   const todos = client.store('todos');
//   todos.subscribe((state) => render(state));
//   await todos.send({ type: 'add', payload: { text: 'milk' } });

// ---------------------------------------------------------------------------------------------------------------
// Errors

/**
 * The error every rejected promise of this module carries.
 *
 * `code` is the server's snake_case error code (docs/protocol.md, "Errors") or one of the client's own:
 * `closed` (the client or store was closed), `queue_full` (more than `maxQueue` actions waiting), `timeout` (no ack
 * within `ackTimeoutMs`), `patch_failed` (an RFC 6902 patch could not be applied), `invalid_pointer` (a malformed
 * RFC 6901 JSON Pointer), `invalid_option` (a bad `connect` option), `store_deleted` (in `store.error`).
 */
export class StatehouseError extends Error {
  /**
   * @param {string} code snake_case error code
   * @param {string} message a sentence saying what went wrong
   * @param {number} [status] the HTTP status, when the error came in an HTTP response
   */
  constructor(code, message, status) {
    super(message);
    this.name = 'StatehouseError';
    /** @type {string} */
    this.code = code;
    /** @type {number | undefined} */
    this.status = status;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// RFC 6901 JSON Pointer

/**
 * Splits an RFC 6901 JSON Pointer into its reference tokens, unescaping `~1` to `/` and `~0` to `~` (in that
 * order, §4). `''` is the whole document (no tokens).
 * @param {string} pointer e.g. `/items/0/text`
 * @returns {string[]} the unescaped tokens
 * @throws {StatehouseError} `invalid_pointer` when it does not start with `/` or has a `~` not followed by 0 or 1
 */
export function parsePointer(pointer) {
  if (pointer === '') return [];
  if (typeof pointer !== 'string' || pointer[0] !== '/') {
    throw new StatehouseError('invalid_pointer', `JSON Pointer ${JSON.stringify(pointer)} must be empty or start with "/".`);
  }
  return pointer.slice(1).split('/').map((token) => {
    if (/~(?![01])/.test(token)) {
      throw new StatehouseError('invalid_pointer', `JSON Pointer ${JSON.stringify(pointer)} has a "~" not followed by 0 or 1.`);
    }
    return token.replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

// ---------------------------------------------------------------------------------------------------------------
// RFC 6902 JSON Patch

const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
/** A store version on the wire: a non-negative integer that a JS number holds exactly (at most 2^53 - 1). */
const isVersion = (value) => Number.isSafeInteger(value) && value >= 0;
/** A non-empty string, else `fallback` (the server's `code` and `message` fields). */
const textOr = (value, fallback) => (typeof value === 'string' && value !== '' ? value : fallback);

function patchError(message) {
  return new StatehouseError('patch_failed', message);
}

/** A deep copy of a JSON value. */
function cloneJSON(value) {
  if (value === undefined) return undefined;
  return typeof structuredClone === 'function' ? structuredClone(value) : JSON.parse(JSON.stringify(value));
}

/** JSON equality as RFC 6902 §4.6 defines it for `test` (objects: the same members, in any order). */
function jsonEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/** The array index a token names (RFC 6901 §4: digits without leading zeros); `-` is `length` when allowed. */
function arrayIndex(array, token, { forAdd }) {
  if (forAdd && token === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw patchError(`"${token}" is not an array index.`);
  const index = Number(token);
  if (index > array.length || (!forAdd && index === array.length)) throw patchError(`Array index ${index} is out of bounds.`);
  return index;
}

/** Sets an object member as an own, enumerable property (also for `__proto__`, which assignment would not). */
function setMember(object, key, value) {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The container and last token of `tokens` in `doc`; throws when a parent is missing. */
function locate(doc, tokens) {
  let parent = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(parent)) parent = parent[arrayIndex(parent, token, { forAdd: false })];
    else if (isObject(parent) && hasOwn(parent, token)) parent = parent[token];
    else throw patchError(`The path's parent at "${token}" does not exist.`);
  }
  if (!Array.isArray(parent) && !isObject(parent)) throw patchError('The path\'s parent is not an object or array.');
  return { parent, key: tokens[tokens.length - 1] };
}

function getValue(doc, tokens) {
  if (tokens.length === 0) return doc;
  const { parent, key } = locate(doc, tokens);
  if (Array.isArray(parent)) return parent[arrayIndex(parent, key, { forAdd: false })];
  if (!hasOwn(parent, key)) throw patchError(`Member "${key}" does not exist.`);
  return parent[key];
}

/** RFC 6902 §4.1; returns the new document (the root may be replaced). */
function addValue(doc, tokens, value) {
  if (tokens.length === 0) return value;
  const { parent, key } = locate(doc, tokens);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, { forAdd: true }), 0, value);
  else setMember(parent, key, value);
  return doc;
}

/** RFC 6902 §4.2; returns the removed value. */
function removeValue(doc, tokens) {
  if (tokens.length === 0) throw patchError('Cannot remove the whole document.');
  const { parent, key } = locate(doc, tokens);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, { forAdd: false }), 1)[0];
  if (!hasOwn(parent, key)) throw patchError(`Member "${key}" does not exist.`);
  const removed = parent[key];
  delete parent[key];
  return removed;
}

/** Applies one operation to `doc` (mutated in place); returns the new document. */
function applyOperation(doc, op) {
  if (!isObject(op) || typeof op.path !== 'string') throw patchError('An operation needs an "op" and a "path".');
  const path = parsePointer(op.path);
  switch (op.op) {
    case 'add':
      if (!hasOwn(op, 'value')) throw patchError('"add" needs a "value".');
      return addValue(doc, path, cloneJSON(op.value));
    case 'remove':
      removeValue(doc, path);
      return doc;
    case 'replace':
      if (!hasOwn(op, 'value')) throw patchError('"replace" needs a "value".');
      if (path.length === 0) return cloneJSON(op.value);
      removeValue(doc, path);
      return addValue(doc, path, cloneJSON(op.value));
    case 'move': {
      const from = parsePointer(op.from);
      if (op.path === op.from) { getValue(doc, from); return doc; }
      if (op.path.startsWith(op.from + '/')) throw patchError('"move" cannot move a value into one of its children.');
      const value = removeValue(doc, from);
      return addValue(doc, path, value);
    }
    case 'copy':
      return addValue(doc, path, cloneJSON(getValue(doc, parsePointer(op.from))));
    case 'test':
      if (!jsonEqual(getValue(doc, path), op.value)) throw patchError(`"test" failed at "${op.path}".`);
      return doc;
    default:
      throw patchError(`Unknown operation ${JSON.stringify(op.op)}.`);
  }
}

/**
 * Applies an RFC 6902 JSON Patch to a copy of `doc`; `doc` itself is never changed, so a patch that fails half way
 * leaves nothing half applied.
 * @param {unknown} doc a JSON value
 * @param {Array<{op: string, path: string, from?: string, value?: unknown}>} ops the operations, applied in order
 * @returns {unknown} the patched copy
 * @throws {StatehouseError} `patch_failed` (a missing target, a failed `test`, a bad index…), `invalid_pointer`
 */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw patchError('A JSON Patch is an array of operations.');
  let result = cloneJSON(doc);
  for (const op of ops) result = applyOperation(result, op);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Backoff

/**
 * Exponential backoff with full jitter: a delay drawn uniformly from `[0, min(maxMs, initialMs * 2^attempt))`.
 * @param {number} attempt failed attempts so far (0 for the first retry)
 * @param {{initialMs?: number, maxMs?: number}} [options] milliseconds; defaults 100 and 5000
 * @param {() => number} [random] a source in [0, 1) (Math.random by default; tests pass their own)
 * @returns {number} the delay in milliseconds
 */
export function backoffDelay(attempt, { initialMs = 100, maxMs = 5000 } = {}, random = Math.random) {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt));
  return random() * ceiling;
}

// ---------------------------------------------------------------------------------------------------------------
// Connection state machine
//
//              synced                 resync
//   connecting ───────▶ live ◀────────────────▶ resyncing
//       ▲                 │     synced             │
//       │ retry           │ drop                   │ drop
//       │                 ▼                        │
//       └────────────── offline ◀──────────────────┘
//   (connecting also goes to offline on drop; every state goes to closed on close; closed is final)
//
//   connecting: the transport is opening, or open with a subscription still waiting for its snapshot.
//   live:       open, every subscription current; queued actions go out.
//   resyncing:  open, a subscription asked for a snapshot (a patch did not fit its version).
//   offline:    the transport is down; a retry is scheduled (backoff with full jitter).
//   closed:     client.close() was called; nothing happens any more.

/** @typedef {'connecting' | 'live' | 'resyncing' | 'offline' | 'closed'} Status */

/**
 * The state machine's table: `TRANSITIONS[status][event]` is the next status. Events not listed for a status leave
 * it unchanged.
 * @type {Readonly<Record<Status, Readonly<Record<string, Status>>>>}
 */
export const TRANSITIONS = Object.freeze({
  connecting: Object.freeze({ synced: 'live', drop: 'offline', close: 'closed' }),
  live: Object.freeze({ resync: 'resyncing', drop: 'offline', close: 'closed' }),
  resyncing: Object.freeze({ synced: 'live', drop: 'offline', close: 'closed' }),
  offline: Object.freeze({ retry: 'connecting', close: 'closed' }),
  closed: Object.freeze({}),
});

/**
 * The status after `event` in `status` (see {@link TRANSITIONS}).
 * @param {Status} status
 * @param {'synced' | 'resync' | 'drop' | 'retry' | 'close'} event
 * @returns {Status}
 */
export function transition(status, event) {
  return TRANSITIONS[status][event] ?? status;
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

/** A random idempotency key: crypto.randomUUID() where there is one (secure contexts), else a v4 UUID by hand. */
function randomID() {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Calls each listener; one that throws is reported without stopping the others or the client. */
function notifyAll(listeners, ...args) {
  for (const listener of [...listeners]) {
    try {
      listener(...args);
    } catch (error) {
      setTimeout(() => { throw error; });
    }
  }
}

/** Whether `token` may go in a `Sec-WebSocket-Protocol` entry (an RFC 7230 token). */
function isProtocolToken(token) {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(token);
}

// ---------------------------------------------------------------------------------------------------------------
// Stores

/**
 * One subscription to a store, made by {@link Client#store}. Its state follows the server's, version by version.
 */
class Store {
  /** @param {Client} client @param {string} name @param {{path?: string, format?: 'patch' | 'state'}} options */
  constructor(client, name, options) {
    this.client = client;
    /** The store's name. @type {string} */
    this.name = name;
    this.path = options.path;
    this.format = options.format ?? 'patch';
    if (this.path !== undefined) parsePointer(this.path);  // throws invalid_pointer now, not on the wire
    /** The current state (or the projection at `path`); undefined until the first snapshot. */
    this.state = undefined;
    /** The version of `state`; 0 until the first snapshot. @type {number} */
    this.version = 0;
    /** The epoch of `state` (docs/protocol.md: changes only when the store's history was lost). @type {string | undefined} */
    this.epoch = undefined;
    /** The last subscription error (e.g. `store_not_found`, `forbidden`), if any. @type {StatehouseError | undefined} */
    this.error = undefined;
    this.subID = undefined;
    /** True while the store has no state yet or asked for a snapshot: the client is not live until it comes. */
    this.awaitingSnapshot = true;
    /** True after a resync request: patches are ignored until the snapshot comes. */
    this.resyncRequested = false;
    this.isClosed = false;
    this.listeners = new Set();
    this.eventListeners = new Set();
  }

  /** Whether the store has a state to resume from. */
  get hasState() { return this.epoch !== undefined; }

  /**
   * Calls `fn(state, info)` at once with the current state if known, then once per version, in version order, never
   * backwards (a new epoch resets to its snapshot). `info`: `{version, epoch, patch?}` (`patch`: the RFC 6902 ops
   * that led to this version, when it came as a patch).
   * @param {(state: unknown, info: {version: number, epoch: string, patch?: object[]}) => void} fn
   * @returns {() => void} unsubscribes `fn`
   */
  subscribe(fn) {
    this.listeners.add(fn);
    if (this.hasState) notifyAll([fn], this.state, { version: this.version, epoch: this.epoch });
    return () => this.listeners.delete(fn);
  }

  /**
   * Calls `fn(event)` for each reducer event (`{type, payload}`, a Flux Standard Action) the store emits from now on.
   * Events are not replayed: those emitted while disconnected are lost. WebSocket and SSE both carry them.
   * @param {(event: {type: string, payload?: unknown}) => void} fn
   * @returns {() => void} removes `fn`
   */
  onEvent(fn) {
    this.eventListeners.add(fn);
    return () => this.eventListeners.delete(fn);
  }

  /**
   * Sends an action (a Flux Standard Action). Queued while offline (in order, at most `maxQueue`), sent once live;
   * an action whose ack was lost to a dropped connection is sent again with the same idempotency `id` (the server
   * then replays its outcome: `replayed: true`).
   * @param {{type: string, payload?: unknown}} action
   * @param {{id?: string}} [options] `id`: the idempotency key (1–255 printable ASCII characters); generated otherwise
   * @returns {Promise<{version: number, replayed: boolean}>} the version right after the action was reduced
   * @throws {StatehouseError} rejects with the server's code (`invalid_action`, `forbidden`, …), or `queue_full`,
   *   `timeout` (after `ackTimeoutMs`; retry with the same `id` to learn the outcome), `closed`
   */
  send(action, { id } = {}) {
    if (this.isClosed) return Promise.reject(new StatehouseError('closed', `Store "${this.name}" was closed; open it again with client.store().`));
    return this.client.enqueue(this, action, id ?? randomID());
  }

  /** Ends this subscription (the client keeps running). Pending sends still complete. */
  close() {
    if (this.isClosed) return;
    this.isClosed = true;
    this.client.removeStore(this);
  }

  // --- Called by the transports -------------------------------------------------------------------------------

  /** The subscription's resume point for a new connection: `{epoch, since}` when a state is known. */
  resumePoint() {
    return this.hasState ? { epoch: this.epoch, since: this.version } : undefined;
  }

  /**
   * A `state` message: a snapshot. One without a string `epoch`, a `version` (see isVersion) and a `state` is not
   * read. Same epoch and not newer: ignored (never backwards, never a version twice; the state held at that version
   * is the server's, as patches apply only from their base), but it answers a resync. A new epoch resets to it.
   * @returns {void}
   */
  receiveSnapshot(message) {
    if (typeof message.epoch !== 'string' || !isVersion(message.version) || !hasOwn(message, 'state')) return;
    this.awaitingSnapshot = false;
    this.resyncRequested = false;
    this.error = undefined;
    if (this.hasState && message.epoch === this.epoch && message.version <= this.version) return;
    this.commit(message.state, message.epoch, message.version, undefined);
  }

  /**
   * A `patch` message: applied only when its `base` is the current version of the same epoch, on a copy.
   * @returns {boolean} false when it did not fit (the caller resyncs)
   */
  receivePatch(message) {
    if (this.resyncRequested) return true;  // the snapshot asked for is on its way
    // Unreadable (no string epoch, a version or base that is no version, no ops array): a gap like any other.
    if (typeof message.epoch !== 'string' || !isVersion(message.version) || !isVersion(message.base)) return false;
    if (!Array.isArray(message.ops)) return false;
    if (this.hasState && message.epoch === this.epoch && message.version <= this.version) return true;  // seen already
    if (!this.hasState || message.epoch !== this.epoch || message.base !== this.version) return false;
    let next;
    try {
      next = applyPatch(this.state, message.ops);
    } catch {
      return false;
    }
    this.awaitingSnapshot = false;
    this.commit(next, message.epoch, message.version, message.ops);
    return true;
  }

  commit(state, epoch, version, patch) {
    this.state = state;
    this.epoch = epoch;
    this.version = version;
    const info = patch ? { version, epoch, patch } : { version, epoch };
    notifyAll(this.listeners, state, info);
  }

  receiveEvent(event) {
    notifyAll(this.eventListeners, event);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Transport over one WebSocket (`/ws`, multiplexed)

/**
 * The client's WebSocket to `/ws`: one subscription per store, actions with `ref` and `id`.
 * Credentials: the `bearer.<token>` subprotocol (browsers cannot set `Authorization` on a WebSocket).
 */
class WebSocketTransport {
  constructor(client) {
    this.client = client;
    this.socket = undefined;
    this.opened = false;
    this.nextSub = 0;
  }

  open() {
    const { client } = this;
    const url = new URL('ws', client.base);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const token = client.options.token;
    let protocols = [];
    if (token !== undefined) {
      if (isProtocolToken(token)) protocols = [`bearer.${token}`];
      else url.searchParams.set('access_token', token);
    }
    let socket;
    try {
      socket = new WebSocket(url.href, protocols);
    } catch {
      setTimeout(() => this.lost());  // e.g. a URL the browser refuses: counts as a failed open
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.opened = true;
      for (const store of client.stores) this.subscribe(store);  // before any action (same socket, in order)
      client.transportOpened(this);
    };
    socket.onmessage = (event) => { if (socket === this.socket) this.receive(event.data); };
    socket.onclose = () => { if (socket === this.socket) this.lost(); };
    socket.onerror = () => {};  // a close always follows
  }

  lost() {
    const opened = this.opened;
    this.socket = undefined;
    this.opened = false;
    this.client.transportLost(this, opened);
  }

  close() {
    const socket = this.socket;
    this.socket = undefined;
    this.opened = false;
    if (socket) socket.close(1000);
  }

  /** Whether a store opened now should subscribe at once (else it does when the socket opens). */
  get accepts() { return this.opened; }

  write(message) {
    this.socket.send(JSON.stringify(message));
  }

  /** Subscribes `store` (resuming from its version when it has one). */
  subscribe(store) {
    store.subID = `s${++this.nextSub}`;
    store.awaitingSnapshot = !store.hasState;  // a resume may bring nothing at all (already current)
    store.resyncRequested = false;
    const message = { type: 'subscribe', id: store.subID, store: store.name, format: store.format };
    if (store.path !== undefined) message.path = store.path;
    const resume = store.resumePoint();
    if (resume) Object.assign(message, resume);
    this.write(message);
  }

  unsubscribe(store, { ended = false } = {}) {
    if (this.opened && store.subID && !ended) this.write({ type: 'unsubscribe', id: store.subID });
  }

  resync(store) {
    this.write({ type: 'resync', id: store.subID });
  }

  sendAction(pending) {
    this.write({ type: 'action', store: pending.store.name, ref: pending.ref, id: pending.id, action: pending.action });
    pending.written = true;
  }

  receive(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (!isObject(message)) return;  // not a message (`null`, an array…): ignored like one of an unknown type
    const { client } = this;
    switch (message.type) {
      case 'state': case 'patch': case 'event': case 'deleted':
        return client.storeMessage(client.storeBySub(message.sub), message);
      case 'ack':  // without a version it answers nothing: the action is sent again or times out
        if (!isVersion(message.version)) return undefined;
        return client.acked(message.ref, { version: message.version, replayed: message.replayed === true });
      case 'error':
        return client.errorMessage(message);
      default:
        return undefined;  // `unsubscribed` and anything newer
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Transport over Server-Sent Events + fetch (the fallback)

/**
 * One `EventSource` per store on `/stores/{name}/events?format=patch&path=…` (resuming with `epoch`/`since` in the
 * query on a new connection) and actions by `fetch` POST `/stores/{name}/actions` with `Idempotency-Key`, one at a
 * time, in order. Credentials: `?access_token=` for EventSource, `Authorization: Bearer` for fetch.
 */
class SSETransport {
  constructor(client) {
    this.client = client;
    this.sources = new Map();  // Store → EventSource
    this.opened = false;
    this.active = false;
    this.posting = false;
    this.retryTimer = undefined;
  }

  open() {
    this.active = true;
    for (const store of this.client.stores) this.subscribe(store);
    if (this.client.stores.size === 0) queueMicrotask(() => this.markOpen());  // nothing to wait for; still async
  }

  markOpen() {
    if (this.opened || !this.active) return;
    this.opened = true;
    this.client.transportOpened(this);
  }

  /** Whether a store opened now should subscribe at once. */
  get accepts() { return this.active; }

  /** Opens the store's EventSource, resuming from its version unless `fresh` (then a snapshot comes first). */
  subscribe(store, fresh = false) {
    this.unsubscribe(store);
    store.awaitingSnapshot = fresh || !store.hasState;
    const url = new URL(`stores/${encodeURIComponent(store.name)}/events`, this.client.base);
    url.searchParams.set('format', store.format);
    if (store.path !== undefined) url.searchParams.set('path', store.path);
    const resume = fresh ? undefined : store.resumePoint();
    if (resume) {
      url.searchParams.set('epoch', resume.epoch);
      url.searchParams.set('since', String(resume.since));
    }
    if (this.client.options.token !== undefined) url.searchParams.set('access_token', this.client.options.token);
    const source = new EventSource(url.href);
    this.sources.set(store, source);
    const handle = (event) => {
      if (this.sources.get(store) !== source) return;
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      this.client.storeMessage(store, message);
    };
    for (const type of ['state', 'patch', 'event', 'deleted']) source.addEventListener(type, handle);
    source.onopen = () => { if (this.sources.get(store) === source) this.markOpen(); };
    source.onerror = () => {
      if (this.sources.get(store) !== source) return;
      // The browser would retry by itself (with Last-Event-ID); the client retries instead, with its backoff,
      // so that every store and the status move together.
      this.lost();
    };
  }

  unsubscribe(store) {
    const source = this.sources.get(store);
    if (source) source.close();
    this.sources.delete(store);
  }

  resync(store) {
    this.subscribe(store, true);  // a new EventSource without epoch/since starts with a snapshot
  }

  lost() {
    if (!this.active) return;
    const opened = this.opened;
    this.close();
    this.client.transportLost(this, opened);
  }

  close() {
    this.active = false;
    this.opened = false;
    for (const source of this.sources.values()) source.close();
    this.sources.clear();
    clearTimeout(this.retryTimer);
  }

  /** Posts queued actions one at a time, in order (the next once the previous is answered). */
  pump() {
    if (this.posting || !this.opened) return;
    const pending = this.client.pending.find((item) => !item.settled);
    if (!pending) return;
    this.posting = true;
    this.post(pending, 0);
  }

  async post(pending, attempt) {
    const { client } = this;
    const url = new URL(`stores/${encodeURIComponent(pending.store.name)}/actions`, client.base);
    const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': pending.id };
    if (client.options.token !== undefined) headers.Authorization = `Bearer ${client.options.token}`;
    let response;
    let body;
    pending.written = true;
    try {
      response = await fetch(url.href, { method: 'POST', headers, body: JSON.stringify(pending.action) });
      body = await response.json().catch(() => undefined);
    } catch {
      response = undefined;
    }
    if (pending.settled || !this.active) { this.posting = false; return this.active ? this.pump() : undefined; }
    if (!response || response.status >= 500 || (response.ok && !isVersion(body?.version))) {
      // Network error, server fault, or a success without a version: the same key again after a backoff (the
      // server replays a done action).
      const delay = backoffDelay(attempt, client.options.backoff);
      this.retryTimer = setTimeout(() => {
        if (this.active && !pending.settled) this.post(pending, attempt + 1);
        else { this.posting = false; if (this.active) this.pump(); }
      }, delay);
      return undefined;
    }
    this.posting = false;
    if (response.ok) {
      client.settle(pending, null, {
        version: body?.version, replayed: response.headers.get('Idempotent-Replayed') === 'true',
      });
    } else {
      const error = isObject(body) && isObject(body.error) ? body.error : {};
      client.settle(pending, new StatehouseError(
        textOr(error.code, 'http_error'), textOr(error.message, `The server answered ${response.status}.`), response.status));
    }
    return this.pump();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The client

/**
 * A connection to one Statehouse server, made by {@link connect}: one transport (a WebSocket to `/ws`, or SSE +
 * fetch) for every store it opens, reconnecting with backoff until closed.
 */
class Client {
  constructor(base, options) {
    /** The server's base URL (ends with `/`). @type {URL} */
    this.base = new URL(base);
    if (!this.base.pathname.endsWith('/')) this.base.pathname += '/';
    this.options = {
      token: options.token,
      transport: options.transport ?? 'auto',
      backoff: { initialMs: 100, maxMs: 5000, ...options.backoff },
      maxQueue: options.maxQueue ?? 1000,
      ackTimeoutMs: options.ackTimeoutMs ?? 30000,
    };
    if (!['auto', 'websocket', 'sse'].includes(this.options.transport)) {
      throw new StatehouseError('invalid_option', `transport must be 'auto', 'websocket' or 'sse', not ${JSON.stringify(this.options.transport)}.`);
    }
    /** @type {Status} */
    this.status = 'connecting';
    this.statusListeners = new Set();
    this.stores = new Set();
    this.pending = [];  // actions not yet answered, in send order
    this.nextRef = 0;
    this.attempt = 0;  // failed attempts since the last time live (backoff exponent)
    this.failedOpens = 0;  // WebSocket attempts in a row that never opened
    this.everOpened = false;
    this.retryTimer = undefined;
    this.useSSE = this.options.transport === 'sse';
    this.transport = undefined;
    this.openTransport();
  }

  /**
   * Calls `fn(status)` on every status change.
   * @param {(status: Status) => void} fn
   * @returns {() => void} removes `fn`
   */
  onStatus(fn) {
    this.statusListeners.add(fn);
    return () => this.statusListeners.delete(fn);
  }

  /**
   * Opens a subscription to the store `name`.
   * @param {string} name the store's name
   * @param {{path?: string, format?: 'patch' | 'state'}} [options] `path`: an RFC 6901 pointer to stream only that
   *   part of the state; `format`: `patch` (default) or `state` (a full state per version)
   * @returns {Store}
   * @throws {StatehouseError} `closed` after close(), `invalid_pointer` for a malformed `path`
   */
  store(name, options = {}) {
    if (this.status === 'closed') throw new StatehouseError('closed', 'The client was closed; connect() again.');
    const store = new Store(this, name, options);
    this.stores.add(store);
    if (this.transport?.accepts) this.transport.subscribe(store);
    return store;
  }

  /** Ends everything: the transport, retries, subscriptions; pending sends reject with code `closed`. */
  close() {
    if (this.status === 'closed') return;
    clearTimeout(this.retryTimer);
    this.transport?.close();
    this.transport = undefined;
    for (const store of this.stores) store.isClosed = true;
    this.stores.clear();
    const pending = this.pending;
    this.pending = [];
    for (const item of pending) this.settle(item, new StatehouseError('closed', 'The client was closed before the action was acknowledged.'));
    this.fire('close');
  }

  // --- Status ----------------------------------------------------------------------------------------------------

  fire(event) {
    const next = transition(this.status, event);
    if (next === this.status) return;
    this.status = next;
    if (next === 'live') {
      this.attempt = 0;
      this.flush();
    }
    notifyAll(this.statusListeners, next);
  }

  /** Live or resyncing once open and no subscription waits for its snapshot. */
  checkSynced() {
    if (!this.transport?.opened) return;
    for (const store of this.stores) if (store.awaitingSnapshot) return;
    this.fire('synced');
  }

  // --- Transport lifecycle ---------------------------------------------------------------------------------------

  openTransport() {
    this.transport = this.useSSE ? new SSETransport(this) : new WebSocketTransport(this);
    this.transport.open();
  }

  transportOpened(transport) {
    if (transport !== this.transport) return;
    if (transport instanceof WebSocketTransport) {
      this.everOpened = true;
      this.failedOpens = 0;
    }
    this.checkSynced();
    this.flush();
  }

  transportLost(transport, opened) {
    if (transport !== this.transport || this.status === 'closed') return;
    if (transport instanceof WebSocketTransport && !opened) {
      this.failedOpens += 1;
      if (this.options.transport === 'auto' && !this.everOpened && this.failedOpens >= 2) this.probeForSSE();
    }
    this.transport = undefined;
    for (const item of this.pending) item.written = false;  // resent with the same id once live again
    this.fire('drop');
    const delay = backoffDelay(this.attempt, this.options.backoff);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      if (this.status !== 'offline') return;
      this.fire('retry');
      this.openTransport();
    }, delay);
  }

  /**
   * WebSockets failed to open twice in a row: blocked (a proxy), or the server is down? Only a server that answers
   * plain HTTP (`GET /healthz`) while its WebSocket does not open means blocked; then SSE + fetch from the next try.
   */
  probeForSSE() {
    if (this.probing || this.useSSE) return;
    this.probing = true;
    fetch(new URL('healthz', this.base), { cache: 'no-store' })
      .then((response) => { if (response.ok && this.status !== 'closed') this.useSSE = true; })
      .catch(() => {})  // the server is unreachable: keep trying WebSockets
      .finally(() => { this.probing = false; });
  }

  removeStore(store) {
    this.stores.delete(store);
    this.transport?.unsubscribe(store);
    this.checkSynced();
  }

  storeBySub(sub) {
    for (const store of this.stores) if (store.subID === sub) return store;
    return undefined;
  }

  /** A stream message for `store` (either transport). */
  storeMessage(store, message) {
    if (!store || store.isClosed || !isObject(message)) return;
    switch (message.type) {
      case 'state':
        store.receiveSnapshot(message);
        this.checkSynced();
        break;
      case 'patch':
        if (!store.receivePatch(message)) this.resync(store);
        else this.checkSynced();
        break;
      case 'event':
        if (isObject(message.event)) store.receiveEvent(message.event);  // an FSA, else not an event
        break;
      case 'deleted':
        store.error = new StatehouseError('store_deleted', `Store "${store.name}" was deleted.`);
        store.awaitingSnapshot = false;
        this.stores.delete(store);
        this.transport?.unsubscribe(store, { ended: true });  // the server ended it: nothing to unsubscribe on /ws
        this.checkSynced();
        break;
      default:
        break;
    }
  }

  resync(store) {
    if (!this.transport) return;  // a new connection resubscribes anyway
    store.awaitingSnapshot = true;
    store.resyncRequested = true;
    this.fire('resync');
    this.transport.resync(store);
  }

  // --- Actions ---------------------------------------------------------------------------------------------------

  enqueue(store, action, id) {
    if (this.status === 'closed') return Promise.reject(new StatehouseError('closed', 'The client was closed; connect() again.'));
    if (this.pending.length >= this.options.maxQueue) {
      return Promise.reject(new StatehouseError('queue_full', `${this.pending.length} actions are waiting already (maxQueue); wait for some to be acknowledged.`));
    }
    return new Promise((resolve, reject) => {
      const pending = { store, action, id, ref: `a${++this.nextRef}`, resolve, reject, written: false, settled: false };
      pending.timer = setTimeout(() => this.settle(pending, new StatehouseError(
        'timeout', `No acknowledgement within ${this.options.ackTimeoutMs} ms; send again with the same id (${id}) to learn the outcome.`)),
      this.options.ackTimeoutMs);
      this.pending.push(pending);
      this.flush();
    });
  }

  /** Sends what waits, in order, once live (after the resubscriptions, which went out when the transport opened). */
  flush() {
    const transport = this.transport;
    if (!transport?.opened || (this.status !== 'live' && this.status !== 'resyncing')) return;
    if (transport instanceof SSETransport) return transport.pump();
    for (const pending of this.pending) if (!pending.written) transport.sendAction(pending);
    return undefined;
  }

  acked(ref, outcome) {
    const pending = this.pending.find((item) => item.ref === ref);
    if (pending) this.settle(pending, null, outcome);
  }

  /** An `error` message: an action's (with `ref`), else a subscription's (with `sub`, docs/protocol.md). */
  errorMessage(message) {
    const error = new StatehouseError(textOr(message.code, 'error'), textOr(message.message, 'The server sent an error.'));
    if (message.ref !== undefined) {
      const pending = this.pending.find((item) => item.ref === message.ref);
      if (pending) this.settle(pending, error);
      return;
    }
    const store = message.sub !== undefined ? this.storeBySub(message.sub) : undefined;
    if (!store) return;
    store.awaitingSnapshot = false;
    store.error = error;
    this.checkSynced();
  }

  /** Resolves (error null) or rejects one pending action and forgets it. */
  settle(pending, error, outcome) {
    if (pending.settled) return;
    pending.settled = true;
    clearTimeout(pending.timer);
    const index = this.pending.indexOf(pending);
    if (index >= 0) this.pending.splice(index, 1);
    if (error) pending.reject(error);
    else pending.resolve(outcome);
  }
}

/**
 * Connects to a Statehouse server. Nothing needs awaiting: stores opened and actions sent before the connection is
 * up wait for it.
 * @param {string | URL} [base] the server, e.g. `http://127.0.0.1:8080`; default: the origin this module was loaded
 *   from
 * @param {object} [options]
 * @param {string} [options.token] a bearer token (docs/security.md): sent as the `bearer.<token>` WebSocket
 *   subprotocol, `Authorization: Bearer` on fetch, and `?access_token=` on EventSource (which has no other way)
 * @param {'auto' | 'websocket' | 'sse'} [options.transport] `auto` (default): WebSocket, falling back to SSE + fetch
 *   for good when the WebSocket fails to open twice in a row without ever having opened while `GET /healthz` answers
 * @param {{initialMs?: number, maxMs?: number}} [options.backoff] reconnect delays in ms (default 100 and 5000),
 *   full jitter: `random(0, min(maxMs, initialMs * 2^attempt))`, reset once live
 * @param {number} [options.maxQueue] actions waiting for their ack at most (default 1000); past it send() rejects
 *   with `queue_full`
 * @param {number} [options.ackTimeoutMs] ms before send() rejects with `timeout` (default 30000)
 * @returns {Client}
 */
export function connect(base = new URL('..', import.meta.url), options = {}) {
  return new Client(base, options);
}
