// How clients/js/statehouse.js reads what a server sends, on fakes of WebSocket, EventSource and fetch (node has no
// WebSocket): messages go in through the socket's `onmessage` and the EventSource listeners, as in a browser.
// Regression tests of what Tests/JS/fuzz_reader.mjs found; the real transports are left to the browser tests.
import assert from 'node:assert/strict';
import { test } from 'node:test';

const sockets = [];
const sources = [];
const posts = [];
globalThis.WebSocket = class {
  constructor() { this.sent = []; sockets.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {}
};
globalThis.EventSource = class {
  constructor(url) { this.url = url; this.listeners = {}; sources.push(this); }
  addEventListener(type, fn) { this.listeners[type] = fn; }
  close() { this.closed = true; }
};
globalThis.fetch = () => new Promise((resolve) => posts.push(resolve));

const { connect, StatehouseError } = await import('../../clients/js/statehouse.js');
const EPOCH = '5f2a9c0e1b7d4e63';

/** A client on a fake WebSocket, open, watching `counter` as s1: its socket and what the store's callbacks saw. */
function openClient() {
  const client = connect('http://127.0.0.1:1/', { transport: 'websocket' });
  const store = client.store('counter');
  const seen = [];
  store.subscribe((state, info) => seen.push({ state, ...info }));
  const socket = sockets.at(-1);
  socket.onopen();
  const receive = (message) => socket.onmessage({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  return { client, store, seen, socket, receive };
}

const snapshot = (version, state, epoch = EPOCH) => ({ sub: 's1', type: 'state', store: 'counter', epoch, version, state });

test('a message that is not an object is ignored, not thrown', (t) => {
  const { client, receive, store } = openClient();
  t.after(() => client.close());
  for (const text of ['null', '[]', '7', '"state"', 'true']) assert.doesNotThrow(() => receive(text), text);
  receive(snapshot(1, { count: 1 }));
  assert.deepEqual(store.state, { count: 1 });
});

test('a resync answered at the version held calls no callback twice', (t) => {
  const { client, receive, seen, socket, store } = openClient();
  t.after(() => client.close());
  receive(snapshot(1, { count: 1 }));
  receive({ sub: 's1', type: 'patch', epoch: EPOCH, version: 2, base: 1, ops: [{ op: 'add', path: '/a~2', value: 1 }] });
  assert.equal(client.status, 'resyncing');
  assert.deepEqual(socket.sent.at(-1), { type: 'resync', id: 's1' });
  receive(snapshot(1, { count: 1 }));
  assert.equal(client.status, 'live');
  assert.deepEqual(seen.map((info) => info.version), [1], 'version 1 once');
  receive({ sub: 's1', type: 'patch', epoch: EPOCH, version: 2, base: 1, ops: [{ op: 'replace', path: '/count', value: 2 }] });
  assert.deepEqual(seen.map((info) => info.version), [1, 2]);
  assert.deepEqual(store.state, { count: 2 });
});

test('a snapshot or patch without a usable epoch, version or state is not read', (t) => {
  const { client, receive, seen, store } = openClient();
  t.after(() => client.close());
  for (const version of [null, -1, 1.5, '3', 2 ** 53, 1e300]) receive(snapshot(version, { count: 9 }));
  receive(snapshot(1, { count: 9 }, 5));
  receive({ sub: 's1', type: 'state', epoch: EPOCH, version: 1 });
  assert.equal(seen.length, 0);
  assert.equal(store.state, undefined);
  receive(snapshot(1, { count: 1 }));
  receive({ sub: 's1', type: 'patch', epoch: EPOCH, version: '2', base: 1, ops: [] });
  assert.equal(client.status, 'resyncing', 'an unreadable patch is a gap');
  receive(snapshot(2, { count: 2 }));
  receive({ sub: 's1', type: 'patch', epoch: EPOCH, version: 3, base: 2, ops: { op: 'add' } });
  assert.equal(client.status, 'resyncing');
  assert.deepEqual(seen.map((info) => info.version), [1, 2]);
  assert.deepEqual(store.state, { count: 2 });
});

test('an event that is not an object is not one', (t) => {
  const { client, receive, store } = openClient();
  t.after(() => client.close());
  const events = [];
  store.onEvent((event) => events.push(event));
  receive({ sub: 's1', type: 'event', store: 'counter' });
  receive({ sub: 's1', type: 'event', store: 'counter', event: 5 });
  receive({ sub: 's1', type: 'event', store: 'counter', event: { type: 'tick' } });
  assert.deepEqual(events, [{ type: 'tick' }]);
});

test('an ack without a version answers nothing; error fields of the wrong type get the defaults', async (t) => {
  const { client, receive, store } = openClient();
  t.after(() => client.close());
  receive(snapshot(1, { count: 1 }));
  const first = store.send({ type: 'increment' }, { id: 'k1' });
  const second = store.send({ type: 'increment' }, { id: 'k2' });
  let settled = false;
  first.then(() => { settled = true; }, () => { settled = true; });
  receive({ type: 'ack', ref: 'a1', version: '2' });
  receive({ type: 'ack', ref: 'a1', version: -2 });
  receive({ type: 'ack', ref: 'a1' });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false);
  receive({ type: 'ack', ref: 'a1', version: 2, replayed: true });
  assert.deepEqual(await first, { version: 2, replayed: true });
  receive({ type: 'error', ref: 'a2', code: 5, message: ['x'] });
  await assert.rejects(second, (error) => error instanceof StatehouseError && error.code === 'error'
    && error.message === 'The server sent an error.');
  receive({ type: 'error', sub: 's1', code: { x: 1 }, message: '' });
  assert.equal(store.error.code, 'error');
});

test('SSE: a 2xx answer without a version is retried; an error body of the wrong shape gets the defaults', async (t) => {
  const client = connect('http://127.0.0.1:1/', { transport: 'sse', backoff: { initialMs: 1, maxMs: 1 } });
  t.after(() => client.close());
  const store = client.store('counter');
  sources.at(-1).onopen();
  sources.at(-1).listeners.state({ data: 'null' });  // not an object: ignored
  sources.at(-1).listeners.state({ data: JSON.stringify(snapshot(1, { count: 1 })) });
  assert.equal(client.status, 'live');
  const answer = (status, body) => posts.shift()({
    status, ok: status < 300, headers: { get: () => null }, json: async () => JSON.parse(body),
  });
  const sent = store.send({ type: 'increment' }, { id: 'k1' });
  await new Promise((resolve) => setImmediate(resolve));
  answer(200, '{"version":"2"}');
  const deadline = Date.now() + 5000;
  while (posts.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(posts.length, 1, 'the same action is posted again');
  answer(200, '{"version":2}');
  assert.deepEqual(await sent, { version: 2, replayed: false });
  const refused = store.send({ type: 'increment' }, { id: 'k2' });
  await new Promise((resolve) => setImmediate(resolve));
  answer(409, '{"error":{"code":5,"message":null}}');
  await assert.rejects(refused, (error) => error.code === 'http_error' && error.status === 409
    && error.message === 'The server answered 409.');
});
