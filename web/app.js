// app.js — Ply's page: the game list, a new-game form built from the game's
// option table, the board (board.js) with move entry by clicks, drags or
// the keyboard, bots that reply or play each other, analysis, undo/redo,
// and the address bar as a shareable link. The API is docs/web-api.md.

import { api, ApiError } from './api.js';
import { Board, MoveEntry, seatColours } from './board.js';

const $ = (id) => document.getElementById(id);
const app = $('app');

// Think times offered by the slider; 0: each seat's own spec (or 1 s).
const THINK = [0, 50, 100, 250, 500, 1000, 2000];
const LONGPOLL_MS = 250;   // live info of a thinking bot: four times a second

const S = {
  cat: null, games: new Map(), bots: [],
  st: null,            // the last state from the server
  id: null,
  flipped: false,
  entry: null,         // MoveEntry over st.legal
  lastCells: [],       // cells of the last move, when the page saw it played
  paused: false,
  stepOnce: false,
  analysing: false,
  token: 0,            // bumps on every state change: stale bot loops stop
  busy: 0,
  botRunning: false,
  lastMover: -1,       // seat that made the last move the page saw
  choiceFor: null,
};

// ---------------------------------------------------------------- helpers

function show(section) {
  for (const s of ['lobby', 'setup', 'play']) $(s).hidden = s !== section;
  app.dataset.view = section;
}

function setError(where, e) {
  const msg = e ? (e.message || String(e)) : '';
  $(where).textContent = msg;
}

function busy(delta) {
  S.busy += delta;
  app.dataset.busy = S.busy > 0 || S.botRunning ? '1' : '0';
}

const isHuman = (spec) => !spec || spec === 'human';
const gameInfo = (name) => S.games.get(name);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function fmtScore(t) {
  if (t.proven) return t.proven > 0 ? 'win' : 'loss';
  if (t.score === undefined || t.score === null) return '';
  const v = t.score / 100;
  return (v > 0 ? '+' : '') + v.toFixed(2);
}
function fmtCount(n) {
  if (n === undefined || n === null) return '';
  if (n >= 1e6) return (n / 1e6).toFixed(1) + 'M';
  if (n >= 1e4) return Math.round(n / 1e3) + 'k';
  return String(n);
}
function fmtMs(ms) { return ms >= 1000 ? (ms / 1000).toFixed(ms % 1000 ? 1 : 0) + ' s' : ms + ' ms'; }

// ---------------------------------------------------------------- the address bar

function params() { return new URLSearchParams(location.search); }

function linkFor(st, withId) {
  const q = new URLSearchParams();
  q.set('game', st.game);
  if (st.options) q.set('options', st.options);
  if (st.setup) q.set('setup', st.setup);
  if (st.moves.length) q.set('moves', st.moves.join(' '));
  if (st.seats && st.seats.some((s) => !isHuman(s))) q.set('seats', st.seats.join(' '));
  if (withId) q.set('id', st.id);
  return q;
}

function syncUrl(push) {
  const st = S.st;
  const q = linkFor(st, true);
  const url = location.pathname + '?' + q.toString();
  if (url !== location.pathname + location.search) {
    history[push ? 'pushState' : 'replaceState'](null, '', url);
  }
  const share = new URL(location.href);
  share.search = '?' + linkFor(st, false).toString();
  $('share').value = share.toString();
  try { localStorage.setItem('ply.last', JSON.stringify({ id: st.id, q: q.toString() })); } catch (e) { /* private mode */ }
}

// ---------------------------------------------------------------- lobby

function renderLobby() {
  const ul = $('gamelist');
  ul.replaceChildren();
  for (const g of S.cat.games) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.dataset.game = g.name;
    const t = document.createElement('b'); t.textContent = g.title || g.name;
    const s = document.createElement('span');
    s.textContent = `${g.name} · ${g.players.length} players`;
    b.append(t, s);
    b.addEventListener('click', () => openSetup(g.name, true));
    li.append(b);
    ul.append(li);
  }
  const f = $('filter');
  const apply = () => {
    const words = f.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const b of ul.querySelectorAll('button[data-game]')) {
      const text = b.textContent.toLowerCase();
      b.parentNode.hidden = !words.every((w) => text.includes(w));
    }
  };
  f.oninput = apply;
  f.onkeydown = (e) => {   // Enter opens the first game shown
    if (e.key !== 'Enter') return;
    const first = [...ul.querySelectorAll('li')].find((li) => !li.hidden);
    if (first) first.querySelector('button').click();
  };
  apply();
  let last = null;
  try { last = JSON.parse(localStorage.getItem('ply.last') || 'null'); } catch (e) { last = null; }
  $('resume').hidden = !last;
  if (last) $('resume-link').href = '?' + last.q;
  $('title').textContent = '';
  document.title = 'Ply';
  show('lobby');
}

// ---------------------------------------------------------------- new-game form

function optionField(o, current) {
  const wrap = document.createElement('label');
  wrap.className = 'opt';
  const val = current !== undefined ? current : o.default;
  let input;
  if (o.type === 'bool') {
    input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = val === 'true';
    wrap.append(input, ' ', o.key);
  } else if (o.type === 'choice' && o.choices) {
    input = document.createElement('select');
    for (const c of o.choices) {
      const op = document.createElement('option'); op.value = op.textContent = c; input.append(op);
    }
    input.value = val;
    wrap.append(o.key, input);
  } else {
    input = document.createElement('input');
    if (o.type === 'int') {
      input.type = 'number';
      if (o.min !== undefined) input.min = o.min;
      if (o.max !== undefined) input.max = o.max;
    }
    input.value = val === undefined ? '' : val;
    wrap.append(o.key, input);
  }
  input.dataset.key = o.key;
  input.dataset.def = o.default === undefined ? '' : o.default;
  input.dataset.type = o.type;
  if (o.help) {
    const small = document.createElement('small'); small.textContent = ' ' + o.help; wrap.append(small);
  }
  return wrap;
}

function parseOptions(text) {
  const m = {};
  for (const kv of (text || '').split(',')) {
    const i = kv.indexOf('=');
    if (i > 0) m[kv.slice(0, i).trim()] = kv.slice(i + 1).trim();
  }
  return m;
}

function seatRow(i, player, spec, defBot) {
  const row = document.createElement('div');
  row.className = 'seat';
  const name = document.createElement('span'); name.textContent = player;
  const sel = document.createElement('select');
  sel.setAttribute('aria-label', `${player} is played by`);
  sel.dataset.seat = i;
  const add = (v, t) => { const o = document.createElement('option'); o.value = v; o.textContent = t; sel.append(o); };
  add('human', 'Human');
  add('bot', `Bot (${defBot})`);
  for (const b of S.bots) add(b.name, b.name);
  const time = document.createElement('input');
  time.placeholder = 'time';
  time.title = 'Time per move for the bot (e.g. 1s, 250ms; empty: the bot\'s own)';
  time.setAttribute('aria-label', `${player}'s bot time per move`);
  time.dataset.seatTime = i;
  let bot = spec || 'human', t = '';
  const colon = bot.indexOf(':');
  if (colon >= 0) {
    const rest = bot.slice(colon + 1); bot = bot.slice(0, colon);
    const m = /(?:^|,)time=([^,]*)/.exec(rest);
    if (m) t = m[1];
    if (rest.replace(/(?:^|,)time=[^,]*/, '')) { add(spec, spec); bot = spec; t = ''; }
  }
  if (![...sel.options].some((o) => o.value === bot)) add(bot, bot);
  sel.value = bot;
  time.value = t;
  const sync = () => { time.disabled = sel.value === 'human'; };
  sel.addEventListener('change', sync); sync();
  row.append(name, sel, time);
  return row;
}

function openSetup(name, push, pre) {
  const g = gameInfo(name);
  if (!g) return;
  pre = pre || {};
  const sel = $('ng-game');
  if (!sel.options.length) {
    for (const x of S.cat.games) {
      const o = document.createElement('option'); o.value = x.name; o.textContent = `${x.title || x.name}`; sel.append(o);
    }
  }
  sel.value = name;
  const cur = parseOptions(pre.options);
  const fo = $('ng-options');
  fo.replaceChildren();
  fo.classList.toggle('none', !g.options.length);
  const lg = document.createElement('legend'); lg.textContent = 'Options'; fo.append(lg);
  for (const o of g.options) fo.append(optionField(o, cur[o.key]));
  seatRows(g, g.players, pre.seats);
  // Options may change who plays (splut players=2): ask the server.
  fo.onchange = async () => {
    const want = formOptions();
    try {
      const r = await api.players(name, want);
      if (r && r.players && formOptions() === want && $('ng-game').value === name) {
        const kept = [...$('ng-seats').querySelectorAll('[data-seat]')].map((e) => e.value);
        seatRows(g, r.players, kept.length ? kept : pre.seats);
      }
    } catch (e) { setError('ng-error', e); }
  };
  if (pre.options) fo.onchange();
  $('ng-setup').value = pre.setup || '';
  $('ng-moves').value = pre.moves || '';
  $('ng-rules-text').textContent = [g.rules, g.notation].filter(Boolean).join('\n\n');
  $('ng-cancel').hidden = !S.st;
  setError('ng-error', null);
  $('title').textContent = g.title || g.name;
  document.title = `${g.title || g.name} · Ply`;
  if (push) history.pushState(null, '', location.pathname + '?new=' + encodeURIComponent(name));
  show('setup');
  sel.focus();
}

// The seat rows of the new-game form: one per player taking part.
function seatRows(g, players, specs) {
  const fs = $('ng-seats');
  fs.replaceChildren();
  const ls = document.createElement('legend'); ls.textContent = 'Players'; fs.append(ls);
  players.forEach((p, i) => {
    let spec = specs && specs[i] ? specs[i] : (i === 0 ? 'human' : 'bot');
    if (!(specs && specs[i]) && i > 0) spec = 'bot:time=1s';
    fs.append(seatRow(i, p, spec, g.default_bot));
  });
}

function formOptions() {
  const opts = [];
  for (const inp of $('ng-options').querySelectorAll('[data-key]')) {
    const v = inp.type === 'checkbox' ? String(inp.checked) : inp.value.trim();
    if (v !== '' && v !== inp.dataset.def) opts.push(`${inp.dataset.key}=${v}`);
  }
  return opts.join(',');
}

function formRequest(allBots) {
  const name = $('ng-game').value;
  const g = gameInfo(name);
  const nseats = $('ng-seats').querySelectorAll('[data-seat]').length;
  const seats = Array.from({ length: nseats }, (_, i) => {
    let bot = $('ng-seats').querySelector(`[data-seat="${i}"]`).value;
    const t = $('ng-seats').querySelector(`[data-seat-time="${i}"]`).value.trim();
    if (allBots && bot === 'human') bot = 'bot';
    if (bot === 'human') return 'human';
    if (bot === 'bot') bot = g.default_bot || 'bot';
    if (t && !/(^|[:,])time=/.test(bot)) return bot + (bot.includes(':') ? ',' : ':') + `time=${t}`;
    return bot;
  });
  return { game: name, options: formOptions(), setup: $('ng-setup').value.trim(),
    moves: $('ng-moves').value.trim(), seats };
}

async function startFromForm(allBots) {
  const req = formRequest(allBots);
  setError('ng-error', null);
  busy(1);
  try {
    const st = await api.create(req);
    S.paused = false;
    S.analysing = false;
    enterGame(st, true);
  } catch (e) {
    setError('ng-error', e);
  } finally { busy(-1); }
}

// ---------------------------------------------------------------- playing

function enterGame(st, push) {
  S.id = st.id;
  S.lastCells = [];
  S.lastMover = -1;
  S.flipped = false;
  // a lone human seat that is not player 0 sits at the bottom
  const humans = st.seats.map((s, i) => (isHuman(s) ? i : -1)).filter((i) => i >= 0);
  if (humans.length === 1 && humans[0] !== 0) S.flipped = true;
  show('play');
  const g = gameInfo(st.game);
  $('title').textContent = st.title || (g && g.title) || st.game;
  document.title = `${st.title || st.game} · Ply`;
  setState(st, push);
}

function setState(st, push) {
  const prev = S.st;
  if (prev && prev.id === st.id && st.ply === prev.ply + 1 && prev.legal) {
    const m = prev.legal.find((x) => x.text === st.moves[st.moves.length - 1]);
    S.lastCells = m ? m.cells : [];
    S.lastMover = prev.to_move;
  } else if (!prev || prev.id !== st.id || st.ply !== prev.ply) {
    S.lastCells = [];
    S.lastMover = -1;
  }
  S.st = st;
  S.token++;              // a bot loop still running for the old state stops
  S.botRunning = false;
  S.entry = new MoveEntry(st.legal || []);
  S.choiceFor = null;
  render();
  syncUrl(push);
  afterChange();
}

function render() {
  const st = S.st;
  const g = gameInfo(st.game) || { players: st.players, formats: [] };
  busy(0);
  app.dataset.game = st.game;
  app.dataset.ply = st.ply;
  app.dataset.toMove = st.to_move;
  app.dataset.result = st.result ? (st.result.text || 'over') : '';
  const colours = seatColours(st.players);
  // seats
  const top = $('seat-top'), bottom = $('seat-bottom');
  top.replaceChildren(); bottom.replaceChildren();
  const bottomSeat = S.flipped ? 1 : 0;
  st.players.forEach((p, i) => {
    const span = document.createElement('span');
    span.dataset.seat = i;
    const dot = document.createElement('span');
    dot.className = 'dot';
    dot.style.background = colours[i].fill;
    const who = isHuman(st.seats[i]) ? 'human' : st.seats[i];
    span.append(dot, ` ${p} (${who})`);
    if (st.to_move === i) span.className = 'tomove';
    (i === bottomSeat ? bottom : top).append(span);
  });
  // board
  const L = st.layout;
  const boardBox = $('board');
  if (L && L.kind !== 'text' && L.cells && L.cells.length) {
    const marks = S.entry.marks();
    const mine = st.to_move >= 0 && isHuman(st.seats[st.to_move]) && !st.result;
    S.board.draw(L, {
      flipped: S.flipped, colours,
      label: `${st.title || st.game} board, ${st.to_move >= 0 ? st.players[st.to_move] + ' to move' : 'game over'}`,
      marks: { last: S.lastCells, ...(mine ? marks : {}) },
    });
  } else {
    const pre = document.createElement('pre');
    pre.className = 'render';
    pre.textContent = st.render || st.position || '';
    boardBox.replaceChildren(pre);
  }
  // moves without cells, or every move on a text board
  const nocell = $('nocell');
  nocell.replaceChildren();
  const mineNow = st.to_move >= 0 && isHuman(st.seats[st.to_move]) && !st.result;
  const textBoard = !(L && L.kind !== 'text' && L.cells && L.cells.length);
  if (mineNow) {
    for (const m of st.legal || []) {
      if (!textBoard && m.cells && m.cells.length) continue;
      const b = document.createElement('button');
      b.textContent = m.text;
      b.dataset.move = m.text;
      b.addEventListener('click', () => playMove(m.text));
      nocell.append(b);
    }
  }
  $('choice').hidden = true;
  // status
  let status;
  if (st.result) status = 'Game over';
  else if (st.to_move === -2) status = 'Chance…';
  else {
    const who = st.players[st.to_move];
    status = isHuman(st.seats[st.to_move]) ? `${who} to move` : `${who} (bot) to move`;
  }
  $('status').textContent = status;
  const res = $('result');
  res.hidden = !st.result;
  if (st.result) {
    res.textContent = st.result.text + (st.result.reason ? ` — ${st.result.reason}` : '');
  }
  // move list: rebuilt only when the history is not the shown one plus moves
  renderMoves(st);
  // typed moves: the legal moves as suggestions, on a human's turn
  const dl = $('legal-list');
  const want = mineNow ? (st.legal || []).slice(0, 400).map((m) => m.text) : [];
  if (dl.dataset.key !== st.id + '/' + st.ply + '/' + want.length) {
    dl.dataset.key = st.id + '/' + st.ply + '/' + want.length;
    dl.replaceChildren(...want.map((t) => { const o = document.createElement('option'); o.value = t; return o; }));
  }
  $('move-in').disabled = !mineNow;
  // controls
  $('b-undo').disabled = st.ply === 0;
  $('b-redo').disabled = !st.redo;
  $('b-hint').disabled = !!st.result;
  $('b-analyse').disabled = !!st.result || S.analysing;
  $('b-stop').disabled = !S.analysing && !S.botRunning;
  const allBots = st.seats.every((s) => !isHuman(s));
  $('b-pause').textContent = S.paused ? 'Resume' : 'Pause';
  $('b-pause').disabled = !st.seats.some((s) => !isHuman(s)) || !!st.result;
  $('b-step').disabled = !S.paused || !!st.result;
  $('watch').dataset.allBots = allBots ? '1' : '0';
  renderSeatEditor(st);
  // share, records, position
  const rec = $('records');
  rec.replaceChildren();
  for (const f of [...(g.formats || []), 'moves']) {
    const a = document.createElement('a');
    a.href = api.recordUrl(st.id, f);
    a.textContent = f.toUpperCase() === 'MOVES' ? 'moves' : f.toUpperCase();
    a.setAttribute('download', '');
    rec.append(a);
  }
  $('position').textContent = (st.render ? st.render + '\n' : '') + st.position;
}

// Who plays each seat, changeable during the game (POST /seats): a human
// can hand over to a bot, or take a seat back.
function renderSeatEditor(st) {
  const box = $('w-seats');
  const key = st.id + '|' + st.seats.join('|');
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  st.players.forEach((p, i) => {
    const row = document.createElement('label');
    row.className = 'seatsel';
    const name = document.createElement('span');
    name.textContent = p;
    const sel = document.createElement('select');
    sel.dataset.seatEdit = i;
    const add = (v, t) => { const o = document.createElement('option'); o.value = v; o.textContent = t; sel.append(o); };
    add('human', 'Human');
    const g = gameInfo(st.game);
    if (g && g.default_bot) add(g.default_bot, `${g.default_bot} (the game's bot)`);
    for (const b of S.bots) if (!g || b.name !== g.default_bot) add(b.name, b.name);
    if (![...sel.options].some((o) => o.value === st.seats[i])) add(st.seats[i], st.seats[i]);
    sel.value = st.seats[i];
    sel.addEventListener('change', () => changeSeat(i, sel.value));
    row.append(name, sel);
    box.append(row);
  });
}

async function changeSeat(i, spec) {
  const seats = S.st.seats.slice();
  seats[i] = spec;
  busy(1);
  try {
    const st = await api.seats(S.id, seats);
    setState(st);
  } catch (e) { setError('play-error', e); render(); } finally { busy(-1); }
}

// A click on a move in the list goes back (or forward) to the position
// after it; the bots wait there until resumed.
async function gotoPly(k) {
  const st = S.st;
  if (!st || k === st.ply) return;
  S.paused = st.seats.some((s) => !isHuman(s));
  busy(1);
  try {
    const s = k < st.ply ? await api.undo(S.id, st.ply - k) : await api.redo(S.id, k - st.ply);
    S.st = null;
    setState(s);
  } catch (e) { setError('play-error', e); } finally { busy(-1); }
}

function renderMoves(st) {
  const ol = $('movelist');
  const n = st.players.length;
  const shown = S.shownMoves || [];
  let keep = ol.dataset.id === st.id && shown.length <= st.moves.length &&
    shown.every((m, k) => st.moves[k] === m) ? shown.length : 0;
  keep -= keep % n;   // rebuild from the start of a row
  if (keep === 0) ol.replaceChildren();
  else while (ol.children.length > keep / n) ol.lastChild.remove();
  for (let i = keep; i < st.moves.length; i += n) {
    const li = document.createElement('li');
    for (let k = i; k < Math.min(i + n, st.moves.length); k++) {
      const sp = document.createElement('span');
      sp.textContent = st.moves[k];
      sp.dataset.ply = k + 1;
      li.append(sp);
    }
    ol.append(li);
  }
  const old = ol.querySelector('span.cur');
  if (old) old.classList.remove('cur');
  const last = ol.lastElementChild && ol.lastElementChild.lastElementChild;
  if (last) { last.classList.add('cur'); ol.scrollTop = ol.scrollHeight; }
  ol.dataset.id = st.id;
  S.shownMoves = st.moves.slice();
}

function onPick(cell) {
  const st = S.st;
  if (!st || st.result || st.to_move < 0 || !isHuman(st.seats[st.to_move])) {
    S.board.draw(st.layout, { ...S.board.view });
    return;
  }
  setError('play-error', null);
  const r = S.entry.pick(cell);
  if (r.done) {
    if (r.done.length === 1) { playMove(r.done[0].text); return; }
    offerChoice(r.done);
    return;
  }
  if (r.ambiguous) setError('play-error', 'Several paths end there: click the squares in order.');
  render();
}

function offerChoice(moves) {
  const box = $('choice');
  box.replaceChildren();
  const lab = document.createElement('span');
  lab.textContent = 'Which move?';
  box.append(lab);
  for (const m of moves) {
    const b = document.createElement('button');
    b.textContent = m.text;
    b.title = m.choice ? `${m.text} (${m.choice})` : m.text;
    b.dataset.move = m.text;
    b.addEventListener('click', () => { box.hidden = true; playMove(m.text); });
    box.append(b);
  }
  const c = document.createElement('button');
  c.textContent = 'Cancel';
  c.addEventListener('click', () => { box.hidden = true; render(); });
  box.append(c);
  box.hidden = false;
  box.querySelector('button').focus();
}

async function playMove(text) {
  setError('play-error', null);
  busy(1);
  try {
    const st = await api.move(S.id, text);
    setState(st);
  } catch (e) {
    setError('play-error', e);
    S.entry.reset();
    render();
  } finally { busy(-1); }
}

async function refresh() {
  try {
    const st = await api.state(S.id);
    setState(st);
  } catch (e) {
    setError('play-error', e);
  }
}

// ---------------------------------------------------------------- bots

function botTimeMs() {
  return THINK[Number($('w-time').value)] || 0;
}

// Called after every state change: a bot to move gets to think.
function afterChange() {
  const st = S.st;
  if (S.analysing) { startAnalysis(); return; }
  if (!st || st.result) { showThink(null); return; }
  const botTurn = st.to_move === -2 || (st.to_move >= 0 && !isHuman(st.seats[st.to_move]));
  if (!botTurn) return;
  if (S.paused && !S.stepOnce) return;
  const step = S.stepOnce;
  S.stepOnce = false;
  runBot(S.token, true, undefined, step);
}

// step: the move Step asked for, which a pause does not hold back
async function runBot(token, delayed, req, step = false) {
  const st = S.st;
  if (delayed && S.lastMover >= 0 && !isHuman(st.seats[S.lastMover])) {
    const d = Number($('w-delay').value);
    if (d > 0) await sleep(d);
    // paused during the delay: no move (the page showed itself idle)
    if (token !== S.token || (S.paused && !step)) return;
  }
  S.botRunning = true;
  busy(0);
  $('b-stop').disabled = false;
  const body = req || {};
  if (!req) {
    if (st.to_move >= 0) body.seat = st.to_move;
    const t = botTimeMs();
    if (t) body.time_ms = t;
    body.play = true;
  }
  try {
    let t;
    try {
      // wait_ms: a server that knows it answers when a quick search is over
      t = await api.go(S.id, { ...body, wait_ms: 150 });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 409) throw e;
      t = await api.think(S.id);   // already thinking: follow it
    }
    // while it thinks: long polls (the server answers when the search is
    // over, or after wait_ms with the live info); a finished search's
    // answer carries the new state in 'game'
    while (token === S.token) {
      showThink(t);
      if (t.state !== 'thinking') break;
      t = await api.think(S.id, LONGPOLL_MS);
    }
    if (t && t.game && token === S.token) {
      S.botRunning = false;
      setState(t.game);
      return;
    }
    if (token === S.token) {
      S.botRunning = false;
      busy(0);
      await refresh();
    }
  } catch (e) {
    if (token === S.token) {
      setError('play-error', e);
      S.paused = true;
      render();
    }
  } finally {
    if (token === S.token) { S.botRunning = false; busy(0); $('b-stop').disabled = !S.analysing; }
  }
}

function showThink(t) {
  const box = $('think');
  box.replaceChildren();
  if (!t || t.state === 'idle') return;
  const line = document.createElement('div');
  const parts = [];
  if (t.state === 'thinking') parts.push(S.analysing ? 'analysing' : 'thinking');
  else parts.push('done');
  if (t.depth) parts.push(`depth ${t.depth}`);
  const sc = t.nodes > 1 || t.depth || t.proven ? fmtScore(t) : '';
  const who = S.st && S.st.players[t.seat !== undefined && t.seat >= 0 ? t.seat : S.st.to_move];
  if (sc) parts.push(`score ${sc}${who ? ' for ' + who : ''}`);
  if (t.nodes) parts.push(`${fmtCount(t.nodes)} nodes`);
  if (t.ms !== undefined) parts.push(fmtMs(t.ms));
  line.textContent = parts.join(' · ');
  line.className = 'info';
  box.dataset.state = t.state;
  box.append(line);
  if (t.best || (t.pv && t.pv.length)) {
    const pv = document.createElement('div');
    pv.className = 'pv';
    pv.textContent = (t.pv && t.pv.length ? t.pv : [t.best]).join(' ');
    box.append(pv);
  }
  if (t.top && t.top.length) {
    const tl = document.createElement('div');
    tl.className = 'pv';
    tl.textContent = t.top.slice(0, 5).map((m) => `${m.move} ${m.visits}`).join(' · ');
    box.append(tl);
  }
}

function startAnalysis() {
  const st = S.st;
  if (!st || st.result) { S.analysing = false; render(); return; }
  S.analysing = true;
  render();
  const bot = $('a-bot').value;
  runBot(S.token, false, { infinite: true, play: false, ...(bot ? { bot } : {}) });
}

// Stop: analysis ends (no move); a bot that is thinking moves now (the
// running bot loop picks its move up).
async function stopThinking() {
  const was = S.analysing;
  S.analysing = false;
  if (was) { S.token++; S.botRunning = false; }
  busy(1);
  try {
    const t = await api.stop(S.id);
    if (was) showThink(t);
  } catch (e) { setError('play-error', e); } finally { busy(-1); }
  render();
}

// Undo back to a human's turn when a human plays against bots.
async function undo() {
  const st = S.st;
  if (!st || !st.ply) return;
  const humans = st.seats.some(isHuman);
  if (!humans) S.paused = true;
  busy(1);
  try {
    let s = await api.undo(S.id, 1);
    let guard = st.players.length;
    while (humans && s.ply > 0 && s.to_move >= 0 && !isHuman(s.seats[s.to_move]) && guard-- > 0) {
      s = await api.undo(S.id, 1);
    }
    S.st = null;
    setState(s);
  } catch (e) { setError('play-error', e); } finally { busy(-1); }
}

async function redo() {
  const st = S.st;
  if (!st || !st.redo) return;
  const humans = st.seats.some(isHuman);
  busy(1);
  try {
    let s = await api.redo(S.id, 1);
    let guard = st.players.length;
    while (humans && s.redo > 0 && s.to_move >= 0 && !isHuman(s.seats[s.to_move]) && guard-- > 0) {
      s = await api.redo(S.id, 1);
    }
    S.st = null;
    setState(s);
  } catch (e) { setError('play-error', e); } finally { busy(-1); }
}

// ---------------------------------------------------------------- routing

async function route() {
  const q = params();
  const id = q.get('id');
  S.token++;
  if (id) {
    try {
      const st = await api.state(id);
      enterGame(st, false);
      return;
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) { $('conn').textContent = e.message; }
    }
  }
  const game = q.get('game');
  if (game) {
    if (!gameInfo(game)) { renderLobby(); $('conn').textContent = `unknown game ${game}`; return; }
    const req = { game, options: q.get('options') || '', setup: q.get('setup') || '',
      moves: q.get('moves') || '' };
    const g = gameInfo(game);
    const seats = (q.get('seats') || '').split(' ').filter(Boolean);
    req.seats = seats.length === g.players.length ? seats : g.players.map(() => 'human');
    if (/^\d+$/.test(q.get('seed') || '')) req.seed = Number(q.get('seed'));
    try {
      const st = await api.create(req);
      S.st = null;
      enterGame(st, false);
    } catch (e) {
      openSetup(game, false, { ...req, seats: req.seats });
      setError('ng-error', e);
    }
    return;
  }
  const n = q.get('new');
  if (n && gameInfo(n)) { openSetup(n, false); return; }
  renderLobby();
}

// ---------------------------------------------------------------- wiring

function wire() {
  S.board = new Board($('board'), onPick);
  $('newgame').addEventListener('submit', (e) => { e.preventDefault(); startFromForm(false); });
  $('ng-watch').addEventListener('click', () => startFromForm(true));
  $('ng-cancel').addEventListener('click', () => { if (S.st) { show('play'); render(); } else renderLobby(); });
  $('ng-game').addEventListener('change', () => openSetup($('ng-game').value, false));
  $('b-new').addEventListener('click', () => {
    const st = S.st;
    openSetup(st.game, false, { options: st.options, seats: st.seats });
  });
  $('b-undo').addEventListener('click', undo);
  $('movelist').addEventListener('click', (e) => {
    const sp = e.target.closest('span[data-ply]');
    if (sp) gotoPly(Number(sp.dataset.ply));
  });
  $('b-redo').addEventListener('click', redo);
  $('b-flip').addEventListener('click', () => { S.flipped = !S.flipped; render(); });
  $('b-hint').addEventListener('click', () => {
    if (!S.st || S.st.result) return;
    S.token++;
    const bot = $('a-bot').value;
    const body = { play: true, ...(bot ? { bot } : {}) };
    const t = botTimeMs();
    if (t) body.time_ms = t;
    runBot(S.token, false, body);
  });
  $('b-analyse').addEventListener('click', () => { S.token++; startAnalysis(); });
  $('b-stop').addEventListener('click', stopThinking);
  $('b-pause').addEventListener('click', () => {
    S.paused = !S.paused;
    render();
    if (!S.paused) afterChange();
  });
  $('b-step').addEventListener('click', () => { S.stepOnce = true; afterChange(); });
  $('b-copy').addEventListener('click', async () => {
    $('share').select();
    try { await navigator.clipboard.writeText($('share').value); $('b-copy').textContent = 'Copied'; } catch (e) {
      document.execCommand && document.execCommand('copy');
    }
    setTimeout(() => { $('b-copy').textContent = 'Copy link'; }, 1500);
  });
  $('typed').addEventListener('submit', (e) => {
    e.preventDefault();
    const v = $('move-in').value.trim();
    if (v) { $('move-in').value = ''; playMove(v); }
  });
  const wt = $('w-time'), wd = $('w-delay');
  const showRanges = () => {
    const t = THINK[Number(wt.value)];
    $('w-time-out').textContent = t ? fmtMs(t) : 'each bot’s own';
    $('w-delay-out').textContent = fmtMs(Number(wd.value));
  };
  wt.value = '0';
  wt.max = String(THINK.length - 1);
  wt.addEventListener('input', showRanges);
  wd.addEventListener('input', showRanges);
  showRanges();
  const ab = $('a-bot');
  const o = document.createElement('option'); o.value = ''; o.textContent = 'game’s bot'; ab.append(o);
  for (const b of S.bots) {
    const x = document.createElement('option'); x.value = x.textContent = b.name; ab.append(x);
  }
  window.addEventListener('popstate', route);
  document.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, select, textarea')) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if ($('play').hidden) return;
    const k = e.key;
    const click = (id) => { if (!$(id).disabled) $(id).click(); e.preventDefault(); };
    if (k === 'ArrowLeft' || k === 'u') click('b-undo');
    else if (k === 'ArrowRight' || k === 'r') click('b-redo');
    else if (k === 'f') click('b-flip');
    else if (k === 'b') click('b-hint');
    else if (k === 'a') click('b-analyse');
    else if (k === 'p') click('b-pause');
    else if (k === 's') click('b-step');
    else if (k === 'n') click('b-new');
    else if (k === 'Escape') {
      if (S.analysing || S.botRunning) click('b-stop');
      else { S.entry && S.entry.reset(); render(); }
    }
  });
  $('board').addEventListener('focus', () => S.st && render());
  $('board').addEventListener('blur', () => S.st && render());
}

async function main() {
  busy(0);
  try {
    S.cat = await api.catalogue();
  } catch (e) {
    $('conn').textContent = e.message;
    app.dataset.state = 'error';
    return;
  }
  for (const g of S.cat.games) S.games.set(g.name, g);
  S.bots = S.cat.bots || [];
  wire();
  await route();
  app.dataset.state = 'ready';
}

main();
