// Unit tests of the pure parts of clients/js/statehouse.js (RFC 6901 pointers, RFC 6902 patches, backoff, the
// connection state machine), run by node's built-in runner: `node --test Tests/JS/` (make test runs it after the
// Swift tests). Node 20 has no WebSocket, so the transports are left to the browser tests.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyPatch, backoffDelay, parsePointer, StatehouseError, transition, TRANSITIONS } from '../../clients/js/statehouse.js';

const failsWith = (code) => (error) => error instanceof StatehouseError && error.code === code;

test('RFC 6901: tokens unescape ~1 before ~0', () => {
  assert.deepEqual(parsePointer(''), []);
  assert.deepEqual(parsePointer('/'), ['']);
  assert.deepEqual(parsePointer('/a~1b/m~0n/~01'), ['a/b', 'm~n', '~1']);
  assert.deepEqual(parsePointer('/items/0/text'), ['items', '0', 'text']);
});

test('RFC 6901: a malformed pointer is invalid_pointer', () => {
  assert.throws(() => parsePointer('items'), failsWith('invalid_pointer'));
  assert.throws(() => parsePointer('/a~2'), failsWith('invalid_pointer'));
  assert.throws(() => parsePointer('/a~'), failsWith('invalid_pointer'));
});

test('RFC 6902 §4: each operation', () => {
  const doc = { items: [{ id: 1, text: 'milk', done: false }], nextID: 2 };
  assert.deepEqual(applyPatch(doc, [{ op: 'add', path: '/items/-', value: { id: 2, text: 'eggs', done: false } }]).items.length, 2);
  assert.deepEqual(applyPatch(doc, [{ op: 'add', path: '/items/0', value: 0 }]).items, [0, doc.items[0]]);
  assert.deepEqual(applyPatch(doc, [{ op: 'remove', path: '/items/0' }]), { items: [], nextID: 2 });
  assert.deepEqual(applyPatch(doc, [{ op: 'replace', path: '/items/0/done', value: true }]).items[0].done, true);
  assert.deepEqual(applyPatch({ a: { b: 1 }, c: [] }, [{ op: 'move', from: '/a/b', path: '/c/0' }]), { a: {}, c: [1] });
  assert.deepEqual(applyPatch({ a: [1, 2] }, [{ op: 'copy', from: '/a', path: '/b' }]), { a: [1, 2], b: [1, 2] });
  assert.deepEqual(applyPatch({ a: { x: 1, y: [2] } }, [{ op: 'test', path: '/a', value: { y: [2], x: 1 } }]), { a: { x: 1, y: [2] } });
  assert.deepEqual(applyPatch({ a: 1 }, [{ op: 'replace', path: '', value: [7] }]), [7]);
  assert.deepEqual(applyPatch({ 'a/b': 1, 'm~n': 2 }, [{ op: 'remove', path: '/a~1b' }, { op: 'replace', path: '/m~0n', value: 3 }]), { 'm~n': 3 });
});

test('RFC 6902: a copied value is not shared with its source', () => {
  const result = applyPatch({ a: { n: 1 } }, [{ op: 'copy', from: '/a', path: '/b' }, { op: 'replace', path: '/b/n', value: 2 }]);
  assert.deepEqual(result, { a: { n: 1 }, b: { n: 2 } });
});

test('RFC 6902: errors are patch_failed and leave the input untouched', () => {
  const doc = { items: [1, 2], name: 'x' };
  const before = JSON.stringify(doc);
  const cases = [
    [{ op: 'remove', path: '/items/5' }],
    [{ op: 'add', path: '/items/3', value: 0 }],
    [{ op: 'add', path: '/items/01', value: 0 }],
    [{ op: 'replace', path: '/missing', value: 0 }],
    [{ op: 'add', path: '/missing/child', value: 0 }],
    [{ op: 'test', path: '/name', value: 'y' }],
    [{ op: 'test', path: '/items', value: [2, 1] }],
    [{ op: 'move', from: '/items', path: '/items/0' }],
    [{ op: 'unknown', path: '/name' }],
    [{ op: 'remove', path: '' }],
    // Half applied, then a failure: nothing of it may show.
    [{ op: 'remove', path: '/items/0' }, { op: 'replace', path: '/name', value: 'z' }, { op: 'test', path: '/name', value: 'x' }],
  ];
  for (const ops of cases) {
    assert.throws(() => applyPatch(doc, ops), failsWith('patch_failed'), JSON.stringify(ops));
    assert.equal(JSON.stringify(doc), before);
  }
});

test('RFC 6902: a member named __proto__ is an own member, not the prototype', () => {
  const result = applyPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]);
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.deepEqual(Object.keys(result), ['__proto__']);
  assert.equal({}.polluted, undefined);
});

test('backoff: full jitter within min(maxMs, initialMs * 2^attempt)', () => {
  const options = { initialMs: 100, maxMs: 5000 };
  assert.equal(backoffDelay(0, options, () => 0), 0);
  assert.equal(backoffDelay(0, options, () => 0.5), 50);
  assert.equal(backoffDelay(3, options, () => 0.5), 400);
  assert.equal(backoffDelay(10, options, () => 0.999), 4995);
  assert.equal(backoffDelay(2000, options, () => 0.5), 2500);  // 2^2000 is Infinity: still bounded
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const delay = backoffDelay(attempt, options);
    assert.ok(delay >= 0 && delay < Math.min(5000, 100 * 2 ** attempt), `attempt ${attempt}: ${delay}`);
  }
  assert.equal(backoffDelay(1, undefined, () => 0.5), 100);  // defaults 100 and 5000
});

test('state machine: the documented transitions, closed is final', () => {
  assert.equal(transition('connecting', 'synced'), 'live');
  assert.equal(transition('connecting', 'drop'), 'offline');
  assert.equal(transition('live', 'resync'), 'resyncing');
  assert.equal(transition('resyncing', 'synced'), 'live');
  assert.equal(transition('resyncing', 'drop'), 'offline');
  assert.equal(transition('offline', 'retry'), 'connecting');
  assert.equal(transition('offline', 'synced'), 'offline');
  assert.equal(transition('live', 'synced'), 'live');
  for (const status of Object.keys(TRANSITIONS)) {
    assert.equal(transition(status, 'close'), 'closed');
    for (const event of ['synced', 'resync', 'drop', 'retry']) assert.equal(transition('closed', event), 'closed');
  }
});
