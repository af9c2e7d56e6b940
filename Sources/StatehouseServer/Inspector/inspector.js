// The Statehouse inspector (docs/operations.md, "Inspector"), served at GET /inspector/inspector.js.
//
// One ES module, no build step. Its data:
//   - GET /inspector/overview every second: stores (version, subscribers by transport, slowest lag), connections
//     per loop (docs/protocol.md; scope `metrics` under auth);
//   - the selected store's stream through the browser client (/client/statehouse.js, format `patch`): the state as
//     a tree, the paths the last patch changed highlighted;
//   - GET /stores/{name}/log for the recent actions of a durable store;
//   - store.send() for the action form (the ack's version, or the server's error).
// A token (auth) is kept in sessionStorage and sent as `Authorization: Bearer` on fetch; statehouse.js sends it as
// the `bearer.<token>` WebSocket subprotocol.

import { connect } from '../client/statehouse.js';

const TOKEN_KEY = 'statehouse.inspector.token';
const OVERVIEW_INTERVAL_MS = 1000;
const RECENT_ACTIONS = 20;

const $ = (id) => document.getElementById(id);

/** A DOM element: `h('td', { className: 'number' }, 'text', child)`; text is always set as text, never as HTML. */
function h(tag, properties = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (name === 'dataset') Object.assign(element.dataset, value);
    else element[name] = value;
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

// ---------------------------------------------------------------------------------------------------------------
// The page's state

const page = {
  token: sessionStorage.getItem(TOKEN_KEY) || undefined,
  client: undefined,
  /** The last overview (or store list, without the metrics scope). */
  stores: [],
  /** name -> durable (true/false) when known. */
  durable: new Map(),
  /** The selected store: {name, store, changed: string[], ops: object[], collapsed: Set<string>, ...} */
  selected: undefined,
  overviewTimer: undefined,
};

function authorization() {
  return page.token === undefined ? {} : { Authorization: `Bearer ${page.token}` };
}

/** GET `url` (relative to the page) with the token; resolves to {ok, status, body (JSON or text), error}. */
async function get(url, { json = true } = {}) {
  let response;
  try {
    response = await fetch(new URL(url, document.baseURI), { headers: authorization(), cache: 'no-store' });
  } catch (error) {
    return { ok: false, status: 0, error: `The server did not answer (${error.message}).` };
  }
  const text = await response.text();
  let body = text;
  if (json || !response.ok) {
    try { body = JSON.parse(text); } catch { body = undefined; }
  }
  if (response.ok) return { ok: true, status: response.status, body };
  const error = body?.error;
  return {
    ok: false, status: response.status, code: error?.code,
    error: error ? `${response.status} ${error.code}: ${error.message}` : `The server answered ${response.status}.`,
  };
}

function notice(text) {
  const element = $('notice');
  element.hidden = !text;
  element.textContent = text ?? '';
}

// ---------------------------------------------------------------------------------------------------------------
// The client (statehouse.js)

function openClient() {
  page.client?.close();
  page.client = connect(undefined, { token: page.token, ackTimeoutMs: 10000 });
  const status = $('status');
  const show = (value) => { status.textContent = value; status.className = `badge ${value}`; };
  show(page.client.status);
  page.client.onStatus(show);
  if (page.selected) subscribe(page.selected.name);
}

// ---------------------------------------------------------------------------------------------------------------
// Stores and connections (GET /inspector/overview, every second)

async function refreshOverview() {
  clearTimeout(page.overviewTimer);
  const overview = await get('inspector/overview');
  if (overview.ok) {
    notice(undefined);
    renderStores(overview.body.stores, true);
    renderConnections(overview.body.loops);
  } else {
    // Without the metrics scope, the store list (read scope) still lets the page show states and send actions.
    const list = overview.status === 403 ? await get('stores') : undefined;
    if (list?.ok) {
      notice(`${overview.error} Subscribers, lag and connections need a token with the metrics scope.`);
      renderStores(list.body.stores, false);
    } else {
      const hint = overview.status === 401 ? ' Enter a token (the metrics scope, plus read and write for stores).' : '';
      notice(`${overview.error}${hint}`);
    }
    renderConnections(undefined);
  }
  $('refreshed').textContent = `updated ${new Date().toLocaleTimeString()}`;
  renderStoreError();
  page.overviewTimer = setTimeout(refreshOverview, OVERVIEW_INTERVAL_MS);
}

/** A cluster node's view of a store's owner (GET /inspector/overview "cluster", docs/cluster.md). */
function clusterText(cluster) {
  if (cluster.owned) return `cluster: owned here (${cluster.node}), lease held ${Math.floor(cluster.leaseHeldMs / 1000)} s`;
  if (cluster.owner) return `cluster: owner ${cluster.owner.replace(/:[0-9]+$/, '')}`;
  return 'cluster: owner not seen yet (the node learns it from the next change or action)';
}

function renderStores(stores, withFigures) {
  page.stores = stores;
  const body = $('stores').tBodies[0];
  const rows = stores.map((store) => {
    if (withFigures) page.durable.set(store.name, store.durable);
    const lag = store.slowestLagVersions ?? 0;
    const lagText = lag > 0 ? `${lag} (${((store.slowestLagMs ?? 0) / 1000).toFixed(1)} s)` : lag;
    const figure = (value) => (withFigures ? value : '–');
    const durable = page.durable.get(store.name);
    const row = h('tr', { dataset: { store: store.name } },
      h('td', {}, h('button', { type: 'button', className: 'link', title: 'Inspect this store' }, store.name)),
      h('td', {}, store.reducer),
      h('td', { className: 'number version' }, store.version),
      h('td', { className: 'number' }, figure(store.subscribers?.websocket)),
      h('td', { className: 'number' }, figure(store.subscribers?.sse)),
      h('td', { className: `number${lag > 0 ? ' behind' : ''}` }, figure(lagText)),
      h('td', {}, store.cluster ? clusterText(store.cluster) : durable === undefined ? '' : durable ? 'durable' : 'memory'));
    if (page.selected?.name === store.name) row.classList.add('selected');
    row.addEventListener('click', () => select(store.name));
    return row;
  });
  body.replaceChildren(...rows);
  $('stores-empty').hidden = stores.length > 0;
}

function formatAge(ms) {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

function renderConnections(loops) {
  const target = $('connections');
  if (!loops) {
    target.replaceChildren(h('p', { className: 'muted' }, 'Connections are listed with a token that has the metrics scope.'));
    return;
  }
  target.replaceChildren(...loops.map((loop) => h('div', { className: 'loop' },
    h('h3', {}, `Loop ${loop.loop}: ${loop.connections.length} connection${loop.connections.length === 1 ? '' : 's'}`),
    h('table', {},
      h('thead', {}, h('tr', {}, ...['Id', 'Kind', 'Peer', 'Age', 'Unsent bytes', 'Subscriptions']
        .map((title, index) => h('th', { className: index === 0 || index === 3 || index === 4 ? 'number' : '' }, title)))),
      h('tbody', {}, ...loop.connections.map((connection) => h('tr', { dataset: { connection: connection.id } },
        h('td', { className: 'number' }, connection.id),
        h('td', {}, connection.kind),
        h('td', {}, connection.peer ?? '–'),
        h('td', { className: 'number' }, formatAge(connection.ageMs)),
        h('td', { className: 'number' }, connection.unsentBytes),
        h('td', { className: 'wrap' }, connection.subscriptions.join(', ')))))))));
}

// ---------------------------------------------------------------------------------------------------------------
// The selected store: its state as a tree, the last patch highlighted

function select(name) {
  if (page.selected?.name === name) return;
  page.selected?.store.close();
  page.selected = {
    name, store: undefined, state: undefined, version: undefined, ops: [], changed: new Set(),
    collapsed: new Set(), log: { loading: false, again: false },
  };
  for (const row of $('stores').tBodies[0].rows) row.classList.toggle('selected', row.dataset.store === name);
  $('store-section').hidden = false;
  $('store-name').textContent = name;
  $('store-version').textContent = '';
  $('tree').replaceChildren(h('p', { className: 'muted' }, 'Waiting for the first state…'));
  $('changed').textContent = '';
  $('ack').textContent = '';
  $('actions').replaceChildren();
  subscribe(name);
}

function subscribe(name) {
  const selected = page.selected;
  selected.store?.close();
  selected.store = page.client.store(name, { format: 'patch' });
  selected.store.subscribe((state, info) => {
    if (page.selected !== selected) return;
    selected.state = state;
    selected.version = info.version;
    selected.ops = info.patch ?? [];
    selected.changed = new Set(changedPointers(selected.ops, state));
    renderState();
    refreshActions();
  });
}

/** The pointers a patch touched; an append's `-` (RFC 6901 §4, RFC 6902 §4.1) as the index it took in `state`. */
function changedPointers(ops, state) {
  const appendsLeft = new Map();
  for (const op of ops) {
    if (op.op === 'add' && op.path.endsWith('/-')) appendsLeft.set(op.path, (appendsLeft.get(op.path) ?? 0) + 1);
  }
  return ops.flatMap((op) => {
    let path = op.path;
    if (op.op === 'add' && path.endsWith('/-')) {
      const left = appendsLeft.get(path) - 1;
      appendsLeft.set(path, left);
      const parent = path.slice(0, -2);
      const array = valueAt(state, parent);
      if (Array.isArray(array)) path = `${parent}/${array.length - 1 - left}`;
    }
    return op.from !== undefined ? [path, op.from] : [path];
  });
}

/** The value at a JSON Pointer (RFC 6901) in `value`, or undefined. */
function valueAt(value, pointer) {
  if (pointer === '') return value;
  return pointer.slice(1).split('/').reduce((node, token) =>
    (node === undefined || node === null ? undefined : node[token.replace(/~1/g, '/').replace(/~0/g, '~')]), value);
}

function renderStoreError() {
  const error = page.selected?.store?.error;
  $('store-error').hidden = !error;
  $('store-error').textContent = error ? `${error.code}: ${error.message}` : '';
}

const escapeToken = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

function renderState() {
  const selected = page.selected;
  $('store-version').textContent = `version ${selected.version}`;
  $('changed').textContent = selected.ops.length === 0
    ? 'A full state (no patch yet): nothing highlighted.'
    : `Last patch (to version ${selected.version}): ${selected.ops.map((op) => `${op.op} ${op.path || '(root)'}`).join(', ')}`;
  $('tree').replaceChildren(treeNode(selected.state, '', undefined, selected));
  renderStoreError();
}

/** One value of the tree: objects and arrays as <details> (open unless collapsed), scalars as one line. */
function treeNode(value, pointer, key, selected) {
  const label = key === undefined ? [] : [h('span', { className: 'key' }, Array.isArray(key) ? key[0] : JSON.stringify(key)), ': '];
  const changed = selected.changed.has(pointer);
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((item, index) => [[index], item]) : Object.entries(value);
    const count = Array.isArray(value) ? `[${value.length}]` : `{${entries.length}}`;
    const summary = h('summary', { className: changed ? 'changed' : '' }, ...label, h('span', { className: 'count' }, count));
    const details = h('details', { open: !selected.collapsed.has(pointer), dataset: { pointer } }, summary,
      h('ul', {}, ...entries.map(([name, item]) => h('li', {},
        treeNode(item, `${pointer}/${escapeToken(Array.isArray(name) ? name[0] : name)}`, name, selected)))));
    details.addEventListener('toggle', () => {
      if (details.open) selected.collapsed.delete(pointer);
      else selected.collapsed.add(pointer);
    });
    return details;
  }
  const type = value === null ? 'null' : typeof value;
  return h('div', { className: `leaf${changed ? ' changed' : ''}`, dataset: { pointer } },
    ...label, h('span', { className: type }, JSON.stringify(value)));
}

// ---------------------------------------------------------------------------------------------------------------
// Recent actions (GET /stores/{name}/log, durable stores only)

async function refreshActions() {
  const selected = page.selected;
  const target = $('actions');
  if (page.durable.get(selected.name) === false) {
    target.replaceChildren(h('p', { className: 'muted' },
      'Recent actions are listed for durable stores (configuration "storage"): this store is kept in memory, and ' +
      'the server keeps no record of its actions.'));
    return;
  }
  if (selected.log.loading) { selected.log.again = true; return; }
  selected.log.loading = true;
  const since = Math.max(0, (selected.version ?? 0) - RECENT_ACTIONS);
  const log = await get(`stores/${encodeURIComponent(selected.name)}/log?since=${since}&limit=${RECENT_ACTIONS}`, { json: false });
  selected.log.loading = false;
  if (page.selected !== selected) return;
  if (!log.ok && log.code === 'not_durable') {
    page.durable.set(selected.name, false);
    return refreshActions();
  }
  if (!log.ok) {
    target.replaceChildren(h('p', { className: 'error' }, log.error));
  } else {
    page.durable.set(selected.name, true);
    const entries = log.body.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line)).reverse();
    target.replaceChildren(entries.length === 0 ? h('p', { className: 'muted' }, 'No actions yet.') : h('table', {},
      h('thead', {}, h('tr', {}, h('th', { className: 'number' }, 'Version'), h('th', {}, 'Origin'), h('th', {}, 'Time'), h('th', {}, 'Action'))),
      h('tbody', {}, ...entries.map((entry) => h('tr', { dataset: { version: entry.version } },
        h('td', { className: 'number' }, entry.version),
        h('td', {}, entry.origin),
        h('td', {}, entry.time ? new Date(entry.time).toLocaleTimeString() : ''),
        h('td', { className: 'wrap' }, JSON.stringify(entry.action ?? entry.state)))))));
  }
  if (selected.log.again) {
    selected.log.again = false;
    refreshActions();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The action form and the token form

$('action-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const selected = page.selected;
  const ack = $('ack');
  let action;
  try {
    action = JSON.parse($('action').value);
  } catch (error) {
    ack.className = 'error';
    ack.textContent = `The action is not JSON: ${error.message}`;
    return;
  }
  ack.className = 'muted';
  ack.textContent = 'Sending…';
  try {
    const outcome = await selected.store.send(action);
    ack.className = 'ok';
    ack.textContent = `Acknowledged: version ${outcome.version}${outcome.replayed ? ' (replayed)' : ''}`;
    ack.dataset.version = outcome.version;
  } catch (error) {
    ack.className = 'error';
    ack.textContent = `${error.code}: ${error.message}`;
    delete ack.dataset.version;
  }
  refreshOverview();
});

$('token').value = page.token ?? '';
$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = $('token').value.trim();
  page.token = value === '' ? undefined : value;
  if (page.token === undefined) sessionStorage.removeItem(TOKEN_KEY);
  else sessionStorage.setItem(TOKEN_KEY, page.token);
  openClient();
  refreshOverview();
});
$('token-forget').addEventListener('click', () => {
  $('token').value = '';
  $('token-form').requestSubmit();
});

openClient();
refreshOverview();
