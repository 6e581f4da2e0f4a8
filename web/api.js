// api.js — the JSON API of `ply serve` (docs/web-api.md), one function per
// endpoint. Every call resolves to the decoded body or throws an ApiError
// carrying the server's message and status.

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch('api/' + path, init);
  } catch (e) {
    throw new ApiError(0, 'the server cannot be reached (is ply serve running?)');
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    throw new ApiError(res.status, (data && data.error) || `HTTP ${res.status}`);
  }
  return data;
}

const g = (id) => 'games/' + encodeURIComponent(id);

export const api = {
  catalogue: () => call('GET', 'games'),
  players: (game, options) => call('GET', 'players?game=' + encodeURIComponent(game) +
    '&options=' + encodeURIComponent(options || '')),
  create: (req) => call('POST', 'games', req),
  state: (id) => call('GET', g(id)),
  move: (id, move) => call('POST', g(id) + '/move', { move }),
  undo: (id, n = 1) => call('POST', g(id) + '/undo', { n }),
  redo: (id, n = 1) => call('POST', g(id) + '/redo', { n }),
  position: (id, setup, moves) => call('POST', g(id) + '/position', { setup, moves }),
  seats: (id, seats) => call('POST', g(id) + '/seats', { seats }),
  go: (id, req) => call('POST', g(id) + '/go', req),
  think: (id, waitMs) => call('GET', g(id) + '/think' + (waitMs ? '?wait_ms=' + waitMs : '')),
  stop: (id) => call('POST', g(id) + '/stop', {}),
  remove: (id) => call('DELETE', g(id)),
  recordUrl: (id, format) => 'api/' + g(id) + '/record?format=' + encodeURIComponent(format),
};
