// board.js — draws a game's layout (docs/web-api.md, "The layout") as SVG
// and turns pointer and keyboard input into cell picks. It knows no game:
// shapes, shades, glyphs, owners, counts and stacks come from the layout.

const NS = 'http://www.w3.org/2000/svg';
const PLAIN = new Set(['●', '○', '⬤']);   // a plain stone or man: a disc, no letter

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
const r3 = (v) => Math.round(v * 1000) / 1000;

// Colours of seats: from the player's name when it is a colour, else a palette.
const NAMED = {
  white: ['#f7f3ea', '#1b1b1b'], black: ['#262626', '#f5f5f5'], red: ['#c0392b', '#fff'],
  blue: ['#2e6fb7', '#fff'], green: ['#2f8f46', '#fff'], yellow: ['#e8c21c', '#1b1b1b'],
  orange: ['#e07b22', '#1b1b1b'], purple: ['#7d4fa8', '#fff'], gold: ['#d4a73a', '#1b1b1b'],
  sente: ['#262626', '#f5f5f5'], gote: ['#f7f3ea', '#1b1b1b'],
};
const PALETTE = [['#f7f3ea', '#1b1b1b'], ['#262626', '#f5f5f5'], ['#c0392b', '#fff'],
  ['#2e6fb7', '#fff'], ['#2f8f46', '#fff'], ['#e8c21c', '#1b1b1b'], ['#7d4fa8', '#fff'],
  ['#e07b22', '#1b1b1b']];
export function seatColours(players) {
  const used = new Set();
  const out = players.map((p) => {
    const c = NAMED[String(p).toLowerCase()];
    if (c && !used.has(c[0])) { used.add(c[0]); return { fill: c[0], text: c[1] }; }
    return null;
  });
  let k = 0;
  return out.map((c) => {
    if (c) return c;
    while (k < PALETTE.length && used.has(PALETTE[k][0])) k++;
    const p = PALETTE[k % PALETTE.length]; used.add(p[0]); k++;
    return { fill: p[0], text: p[1] };
  });
}
const NEUTRAL = { fill: '#9a9a9a', text: '#111' };

export class Board {
  // onPick(cell) is called for each pick (a click, the end of a drag, Enter).
  constructor(container, onPick) {
    this.box = container;
    this.onPick = onPick;
    this.layout = null;
    this.flipped = false;
    this.cursor = -1;
    this.down = -1;
    this.pendingReclick = false;
    this.selectedLast = -1;
    container.addEventListener('pointerdown', (e) => this.pointerDown(e));
    container.addEventListener('pointerup', (e) => this.pointerUp(e));
    container.addEventListener('pointermove', (e) => this.pointerMove(e));
    container.addEventListener('pointercancel', () => { this.down = -1; this.dragTo(null); });
    container.addEventListener('keydown', (e) => this.key(e));
  }

  // The point (x, y) of the layout as drawn (flipped: both axes mirrored).
  pos(x, y) {
    const L = this.layout;
    return this.flipped ? [L.width - x, L.height - y] : [x, y];
  }

  cellAt(e) {
    const t = document.elementFromPoint(e.clientX, e.clientY);
    const c = t && t.closest ? t.closest('[data-cell]') : null;
    return c && this.box.contains(c) ? Number(c.dataset.cell) : -1;
  }

  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    const c = this.cellAt(e);
    this.down = c;
    if (c < 0) return;
    e.preventDefault();
    this.cursor = c;
    this.keyboard = false;
    this.start = [e.clientX, e.clientY];
    try { this.box.setPointerCapture(e.pointerId); } catch (err) { /* synthetic events */ }
    // A press on the selected cell may start a drag: decide on release.
    if (c === this.selectedLast) { this.pendingReclick = true; return; }
    this.pendingReclick = false;
    this.onPick(c);
  }

  // While a press moves, the pressed cell's piece follows the pointer.
  pointerMove(e) {
    if (this.down < 0 || !this.svg || !this.start) return;
    if (Math.hypot(e.clientX - this.start[0], e.clientY - this.start[1]) < 4) return;
    const g = this.svg.querySelector(`g[data-of="${this.down}"]`);
    if (!g || !g.firstChild) return;
    const m = this.svg.getScreenCTM();
    if (!m) return;
    const k = 1 / m.a;
    this.dragTo(g, (e.clientX - this.start[0]) * k, (e.clientY - this.start[1]) * k);
  }

  dragTo(g, dx, dy) {
    if (!g) return;
    g.setAttribute('transform', `translate(${r3(dx)} ${r3(dy)})`);
    g.classList.add('dragging');
    g.parentNode.appendChild(g);
  }

  pointerUp(e) {
    try { this.box.releasePointerCapture(e.pointerId); } catch (err) { /* not captured */ }
    const moved = this.svg && this.svg.querySelector('g.dragging');
    if (moved) { moved.removeAttribute('transform'); moved.classList.remove('dragging'); }
    const c = this.cellAt(e);
    const from = this.down;
    this.down = -1;
    if (from < 0) return;
    if (c >= 0 && c !== from) { this.pendingReclick = false; this.onPick(c); return; }
    if (c === from && this.pendingReclick) { this.pendingReclick = false; this.onPick(c); }
  }

  key(e) {
    const L = this.layout;
    if (!L || !L.cells || !L.cells.length) return;
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key] || e.key === 'Enter' || e.key === ' ') this.keyboard = true;
    if (dirs[e.key]) {
      e.preventDefault();
      e.stopPropagation();
      this.moveCursor(...dirs[e.key]);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      if (this.cursor < 0) this.moveCursor(0, 0);
      else this.onPick(this.cursor);
    }
  }

  // Moves the cursor to the nearest named cell in the direction (dx, dy) on screen.
  moveCursor(dx, dy) {
    const cells = this.layout.cells;
    if (this.cursor < 0 || this.cursor >= cells.length) {
      let best = -1, bd = Infinity;
      const [cx, cy] = [this.layout.width / 2, this.layout.height / 2];
      cells.forEach((c, i) => {
        if (c.name === undefined) return;
        const [x, y] = this.pos(c.x, c.y);
        const d = (x - cx) ** 2 + (y - cy) ** 2;
        if (d < bd) { bd = d; best = i; }
      });
      this.cursor = best;
    } else {
      const [x0, y0] = this.pos(cells[this.cursor].x, cells[this.cursor].y);
      let best = -1, bd = Infinity;
      cells.forEach((c, i) => {
        if (i === this.cursor || c.name === undefined) return;
        const [x, y] = this.pos(c.x, c.y);
        const along = (x - x0) * dx + (y - y0) * dy;
        if (along <= 0.01) return;
        const across = Math.abs((x - x0) * dy - (y - y0) * dx);
        const d = along + 2.5 * across;
        if (d < bd) { bd = d; best = i; }
      });
      if (best >= 0) this.cursor = best;
    }
    this.draw(this.layout, this.view);
  }

  // view: { flipped, colours[], marks: {sel, path, target, last, from: [cells]} }
  draw(layout, view) {
    this.layout = layout;
    this.view = view;
    this.flipped = !!view.flipped;
    const marks = view.marks || {};
    const sel = marks.sel || [];
    this.selectedLast = sel.length ? sel[sel.length - 1] : -1;
    const W = layout.width, H = layout.height;
    // the drawing of cells, lines, names and click areas is kept while the
    // geometry is the same; marks and pieces are drawn anew every time
    const key = [W, H, this.flipped, layout.cells.length, (layout.lines || []).length,
      layout.cells.map((c) => `${c.x},${c.y},${c.shape},${c.shade || ''}`).join(';')].join('|');
    let svg = this.svg;
    if (key !== this.geomKey || !svg || !this.box.contains(svg)) {
      svg = this.drawStatic(layout, view);
      this.geomKey = key;
      this.svg = svg;
      this.box.replaceChildren(svg);
    }
    svg.setAttribute('aria-label', view.label || 'board');
    const gMarks = el('g', { class: 'marks' });
    const gPieces = el('g', { class: 'pieces' });
    const markSets = {};
    for (const k of ['last', 'from', 'path', 'sel', 'target', 'hint']) markSets[k] = new Set(marks[k] || []);
    layout.cells.forEach((c, i) => {
      const [x, y] = this.pos(c.x, c.y);
      for (const k of ['last', 'from', 'path', 'sel', 'target', 'hint']) {
        if (markSets[k].has(i)) this.drawMark(gMarks, c, x, y, k);
      }
      if (i === this.cursor && this.keyboard && document.activeElement === this.box) this.drawMark(gMarks, c, x, y, 'cursor');
      if (c.glyph !== undefined || c.stack || c.count !== undefined || c.owner !== undefined || c.label) {
        this.drawContents(el('g', { 'data-of': i }, gPieces), c, x, y, view.colours || []);
      }
    });
    svg.querySelector('g.marks').replaceWith(gMarks);
    svg.querySelector('g.pieces').replaceWith(gPieces);
  }

  drawStatic(layout, view) {
    const W = layout.width, H = layout.height;
    const pad = 0.12;
    const svg = el('svg', {
      viewBox: `${-pad} ${-pad} ${W + 2 * pad} ${H + 2 * pad}`,
      role: 'img', 'data-width': W, 'data-height': H,
    });
    const hasPoints = layout.cells.some((c) => c.shape === 'point' || c.shape === 'edge');
    const hasSquares = layout.cells.some((c) => c.shape === 'square' || c.shape === 'tile' || c.shape === 'hex');
    if (hasPoints || (layout.lines && layout.lines.length) || !hasSquares) {
      el('rect', { class: 'boardbg', x: -pad, y: -pad, width: W + 2 * pad, height: H + 2 * pad, rx: 0.15 }, svg);
    }
    const gCells = el('g', { class: 'cells' }, svg);
    const gLines = el('g', { class: 'lines' }, svg);
    el('g', { class: 'marks' }, svg);
    el('g', { class: 'pieces' }, svg);
    const gHits = el('g', { class: 'hits' }, svg);
    for (const ln of layout.lines || []) {
      const [x1, y1] = this.pos(ln[0], ln[1]);
      const [x2, y2] = this.pos(ln[2], ln[3]);
      el('line', { class: 'grid', x1: r3(x1), y1: r3(y1), x2: r3(x2), y2: r3(y2) }, gLines);
    }
    layout.cells.forEach((c, i) => {
      const [x, y] = this.pos(c.x, c.y);
      this.drawCell(gCells, c, x, y);
      this.drawHit(gHits, c, x, y, i);
    });
    this.drawCoords(el('g', { class: 'coords' }, svg), layout);
    return svg;
  }

  // Names along the board's edge: the bottom row's under it, the left
  // column's beside it, shortened to what differs (a1 b1 c1 -> a b c; a1 a2
  // -> 1 2) when that leaves distinct, non-empty labels.
  drawCoords(g, layout) {
    const cells = layout.cells.filter((c) => c.name !== undefined &&
      (c.shape === 'square' || c.shape === 'point' || c.shape === 'hex'));
    if (cells.length < 9) return;
    const at = cells.map((c) => [c, ...this.pos(c.x, c.y)]);
    const maxY = Math.max(...at.map((a) => a[2]));
    const minX = Math.min(...at.map((a) => a[1]));
    const bottom = at.filter((a) => Math.abs(a[2] - maxY) < 0.01);
    const left = at.filter((a) => Math.abs(a[1] - minX) < 0.01);
    const bl = shorten(bottom.map((a) => a[0].name), false);
    const ll = shorten(left.map((a) => a[0].name), true);
    const pt = cells[0].shape === 'point';
    bottom.forEach(([c, x, y], k) => {
      const t = pt ? this.text(g, 'coord', x, y + 0.47, bl[k]) : this.text(g, 'coord', x + 0.46, y + 0.4, bl[k]);
      t.setAttribute('text-anchor', pt ? 'middle' : 'end');
    });
    left.forEach(([c, x, y], k) => {
      const t = pt ? this.text(g, 'coord', x - 0.43, y, ll[k]) : this.text(g, 'coord', x - 0.46, y - 0.33, ll[k]);
      t.setAttribute('text-anchor', pt ? 'end' : 'start');
    });
  }

  drawCell(g, c, x, y) {
    const shade = c.shade || 'plain';
    switch (c.shape) {
      case 'square': case 'tile':
        el('rect', { class: `cell ${shade}`, x: r3(x - 0.5), y: r3(y - 0.5), width: 1, height: 1 }, g);
        break;
      case 'hex':
        el('polygon', { class: `cell ${shade}`, points: hexPoints(x, y, 0.5 / Math.cos(Math.PI / 6)) }, g);
        break;
      case 'pit':
        el('circle', { class: 'cell pit', cx: r3(x), cy: r3(y), r: 0.42 }, g);
        break;
      case 'store': {
        const h = c.h || 2;
        el('rect', { class: 'cell pit', x: r3(x - 0.42), y: r3(y - h / 2 + 0.08), width: 0.84,
          height: r3(h - 0.16), rx: 0.4 }, g);
        break;
      }
      case 'hand':
        el('rect', { class: 'cell hand', x: r3(x - 0.46), y: r3(y - 0.46), width: 0.92, height: 0.92, rx: 0.1 }, g);
        break;
      case 'edge': {
        const [dx, dy] = this.flipped ? [-(c.dx || 0), -(c.dy || 0)] : [c.dx || 0, c.dy || 0];
        el('line', { class: 'edge empty', x1: r3(x - dx), y1: r3(y - dy), x2: r3(x + dx), y2: r3(y + dy),
          stroke: '#c9b489', 'stroke-width': 0.06 }, g);
        break;
      }
      case 'point':
        if (c.shade && c.shade !== 'plain') {
          el('circle', { class: `cell ${shade}`, cx: r3(x), cy: r3(y), r: 0.12 }, g);
        }
        break;
      default:
        el('rect', { class: `cell ${shade}`, x: r3(x - 0.5), y: r3(y - 0.5), width: 1, height: 1 }, g);
    }
  }

  drawMark(g, c, x, y, kind) {
    if (kind === 'hint') {   // where a placement may go, before any pick
      if (c.shape === 'edge') {
        const [dx, dy] = this.flipped ? [-(c.dx || 0), -(c.dy || 0)] : [c.dx || 0, c.dy || 0];
        el('line', { class: 'mark hint', x1: r3(x - dx * 0.6), y1: r3(y - dy * 0.6), x2: r3(x + dx * 0.6),
          y2: r3(y + dy * 0.6), stroke: 'rgba(30,140,60,0.45)', 'stroke-width': 0.05, 'data-mark': kind }, g);
      } else {
        el('circle', { class: 'mark hint', cx: r3(x), cy: r3(y), r: 0.11, 'data-mark': kind }, g);
      }
      return;
    }
    if (kind === 'target' && (c.glyph === undefined && !c.count && !c.stack) && c.shape !== 'pit' &&
        c.shape !== 'store' && c.shape !== 'edge') {
      el('circle', { class: 'mark target', cx: r3(x), cy: r3(y), r: 0.17, 'data-mark': kind }, g);
      return;
    }
    if (c.shape === 'edge') {
      const [dx, dy] = this.flipped ? [-(c.dx || 0), -(c.dy || 0)] : [c.dx || 0, c.dy || 0];
      el('line', { class: `mark ${kind}`, x1: r3(x - dx), y1: r3(y - dy), x2: r3(x + dx), y2: r3(y + dy),
        stroke: kind === 'target' ? 'rgba(30,140,60,0.8)' : 'rgba(240,200,20,0.9)',
        'stroke-width': 0.16, 'stroke-linecap': 'round', 'data-mark': kind }, g);
      return;
    }
    if (kind === 'target' || kind === 'cursor' || kind === 'from') {
      const rr = c.shape === 'store' ? 0.46 : 0.47;
      if (c.shape === 'store') {
        const h = c.h || 2;
        el('rect', { class: `mark ${kind === 'target' ? 'from' : kind}`, x: r3(x - rr), y: r3(y - h / 2 + 0.04),
          width: 2 * rr, height: h - 0.08, rx: 0.4, 'data-mark': kind }, g);
      } else {
        el('circle', { class: `mark ${kind === 'target' ? 'from' : kind}`, cx: r3(x), cy: r3(y), r: rr,
          'data-mark': kind, ...(kind === 'target' ? { style: 'stroke-width:0.09' } : {}) }, g);
      }
      return;
    }
    if (c.shape === 'point' || c.shape === 'pit' || c.shape === 'hex') {
      el('circle', { class: `mark ${kind}`, cx: r3(x), cy: r3(y), r: 0.48, 'data-mark': kind }, g);
    } else {
      el('rect', { class: `mark ${kind}`, x: r3(x - 0.5), y: r3(y - 0.5), width: 1, height: 1, 'data-mark': kind }, g);
    }
  }

  drawContents(g, c, x, y, colours) {
    const col = (o) => (o === undefined || o < 0 ? NEUTRAL : colours[o] || NEUTRAL);
    if (c.shape === 'edge') {
      if (c.owner !== undefined || c.glyph !== undefined) {
        const [dx, dy] = this.flipped ? [-(c.dx || 0), -(c.dy || 0)] : [c.dx || 0, c.dy || 0];
        const o = c.owner;
        el('line', { class: 'edge piece-edge', 'data-piece': '1', x1: r3(x - dx), y1: r3(y - dy),
          x2: r3(x + dx), y2: r3(y + dy),
          stroke: o === undefined || o < 0 ? '#3a3a3a' : col(o).fill, 'stroke-width': 0.13 }, g);
      }
      return;
    }
    if (c.shape === 'pit' || c.shape === 'store') {
      if (c.count !== undefined) {
        const t = el('text', { class: 'count', x: r3(x), y: r3(y), 'data-count': c.count }, g);
        t.textContent = String(c.count);
      }
      if (c.label) this.text(g, 'label', x, y + 0.32, c.label);
      return;
    }
    if (c.glyph === undefined && !c.stack) {
      if (c.count !== undefined && c.count !== 0) {
        const t = el('text', { class: 'count', x: r3(x), y: r3(y), 'data-count': c.count }, g);
        t.textContent = String(c.count);
      }
      if (c.label) this.text(g, 'label', x, y + 0.36, c.label);
      return;
    }
    const hand = c.shape === 'hand';
    const R = hand ? 0.33 : 0.4;
    if (c.stack && c.stack.length) {
      const layers = c.stack.split('').map(Number);
      const shown = layers.slice(-6);
      const step = 0.07;
      const base = y + step * (shown.length - 1) / 2;
      shown.forEach((o, k) => {
        const cy = base - k * step;
        el('ellipse', { class: 'piece', cx: r3(x), cy: r3(cy), rx: R, ry: R * 0.8, fill: col(o).fill,
          ...(k === shown.length - 1 ? { 'data-piece': '1', 'data-owner': o } : {}) }, g);
      });
      const top = layers[layers.length - 1];
      const ty = base - (shown.length - 1) * step;
      if (c.king) this.crown(g, x, ty, col(top).text);
      if (layers.length > 1) {
        this.text(g, 'count', x + 0.36, y - 0.36, String(layers.length), '#111', 0.24);
      }
      return;
    }
    const o = c.owner;
    const cc = col(o);
    el('circle', { class: 'piece', cx: r3(x), cy: r3(y), r: R, fill: cc.fill, 'data-piece': '1',
      'data-owner': o === undefined ? -1 : o, ...(c.king ? { 'data-king': '1' } : {}) }, g);
    if (c.king) {
      el('circle', { class: 'piece', cx: r3(x), cy: r3(y), r: R * 0.72, fill: 'none', stroke: cc.text,
        'stroke-width': 0.03 }, g);
      if (PLAIN.has(c.glyph)) this.crown(g, x, y, cc.text);
    }
    if (c.glyph !== undefined && !PLAIN.has(c.glyph)) {
      const n = [...c.glyph].length;
      const size = n <= 1 ? 0.5 : n === 2 ? 0.36 : 0.26;
      this.text(g, 'glyph', x, y + 0.02, c.glyph, cc.text, size * (hand ? 0.85 : 1));
    }
    if (c.count !== undefined && (hand ? c.count > 1 : true)) {
      this.text(g, 'count', x + 0.32, y - 0.32, String(c.count), '#111', 0.26);
    }
    if (c.label) this.text(g, 'label', x, y + 0.42, c.label, '#111');
  }

  crown(g, x, y, colour) {
    const s = 0.16;
    const pts = [[-1, 0.6], [-1, -0.5], [-0.5, 0], [0, -0.8], [0.5, 0], [1, -0.5], [1, 0.6]]
      .map(([a, b]) => `${r3(x + a * s)},${r3(y + b * s)}`).join(' ');
    el('polygon', { points: pts, fill: colour, class: 'mark' }, g);
  }

  text(g, cls, x, y, s, fill, size) {
    const t = el('text', { class: cls, x: r3(x), y: r3(y) }, g);
    if (fill) t.setAttribute('fill', fill);
    if (size) t.setAttribute('font-size', `${size}px`);
    t.textContent = s;
    return t;
  }

  drawHit(g, c, x, y, i) {
    let h;
    const a = { class: 'hit', 'data-cell': i };
    if (c.name !== undefined) a['data-name'] = c.name;
    if (c.shape === 'edge') {
      const [dx, dy] = this.flipped ? [-(c.dx || 0), -(c.dy || 0)] : [c.dx || 0, c.dy || 0];
      h = el('line', { ...a, x1: r3(x - dx), y1: r3(y - dy), x2: r3(x + dx), y2: r3(y + dy),
        stroke: 'transparent', 'stroke-width': 0.3 }, g);
    } else if (c.shape === 'store') {
      const hh = c.h || 2;
      h = el('rect', { ...a, x: r3(x - 0.5), y: r3(y - hh / 2), width: 1, height: hh }, g);
    } else if (c.shape === 'point' || c.shape === 'pit' || c.shape === 'hex') {
      h = el('circle', { ...a, cx: r3(x), cy: r3(y), r: 0.5 }, g);
    } else {
      h = el('rect', { ...a, x: r3(x - 0.5), y: r3(y - 0.5), width: 1, height: 1 }, g);
    }
    if (c.name !== undefined) el('title', {}, h).textContent = c.name;
  }
}

// Drops the part every name shares (the rank along a row, the file down a
// column) when what is left is non-empty and tells the names apart.
function shorten(names, keepEnd) {
  if (names.length < 2) return names;
  let k = 0;
  const at = (n, i) => (keepEnd ? n[i] : n[n.length - 1 - i]);
  while (names.every((n) => k < n.length && at(n, k) === at(names[0], k))) k++;
  if (!k) return names;
  const out = names.map((n) => (keepEnd ? n.slice(k) : n.slice(0, n.length - k)));
  if (out.some((n) => !n) || new Set(out).size !== out.length) return names;
  // a cut inside a number (16 26 36 -> 1 2 3) would mislead: keep whole names
  if (!keepEnd && out.some((n, i) => /\d$/.test(n) && /^\d/.test(names[i].slice(n.length)))) return names;
  if (keepEnd && out.some((n, i) => /^\d/.test(n) && /\d$/.test(names[i].slice(0, names[i].length - n.length)))) return names;
  return out;
}

function hexPoints(x, y, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 6 + k * Math.PI / 3;
    pts.push(`${r3(x + r * Math.cos(a))},${r3(y + r * Math.sin(a))}`);
  }
  return pts.join(' ');
}

// The moves a sequence of picks may still become: picks are cells; a move
// is chosen when its cells are picked in order, or when its last cell is
// picked after its first and no other move ends there.
export class MoveEntry {
  constructor(legal) { this.legal = legal.filter((m) => m.cells && m.cells.length); this.prefix = []; }

  reset() { this.prefix = []; }

  starts(p) {
    return this.legal.filter((m) => m.cells.length >= p.length && p.every((c, k) => m.cells[k] === c));
  }

  // What the page marks: selected cells, the next cells, movable pieces.
  marks() {
    const p = this.prefix;
    if (!p.length) {
      const from = new Set(), target = new Set();
      for (const m of this.legal) (m.cells.length === 1 ? target : from).add(m.cells[0]);
      return { from: [...from], hint: target.size <= 64 ? [...target] : [] };
    }
    const cands = this.starts(p);
    const target = new Set();
    for (const m of cands) {
      if (m.cells.length > p.length) {
        target.add(m.cells[p.length]);
        target.add(m.cells[m.cells.length - 1]);
      } else target.add(p[p.length - 1]);
    }
    return { sel: [p[p.length - 1]], path: p.slice(0, -1), target: [...target] };
  }

  // A pick: returns {done: [moves]} when it completes one or more moves
  // (more than one: they differ by their choice), else {} (selection changed).
  pick(c) {
    const p = this.prefix;
    if (p.length) {
      const cands = this.starts(p);
      if (c === p[p.length - 1]) {
        // the selected cell again: completes a move that ends there, else deselects
        const exact = cands.filter((m) => m.cells.length === p.length);
        this.prefix = [];
        return exact.length ? { done: exact } : {};
      }
      const ext = cands.filter((m) => m.cells[p.length] === c);
      if (ext.length) {
        const np = [...p, c];
        const exact = ext.filter((m) => m.cells.length === np.length);
        if (exact.length === ext.length) { this.prefix = []; return { done: exact }; }
        this.prefix = np;
        return {};
      }
      const fin = cands.filter((m) => m.cells[m.cells.length - 1] === c && m.cells.length > p.length);
      if (fin.length && fin.every((m) => sameCells(m.cells, fin[0].cells))) { this.prefix = []; return { done: fin }; }
      if (fin.length) {
        // several paths end there: keep the common part and let the player click through
        let k = p.length;
        while (fin.every((m) => m.cells[k] === fin[0].cells[k])) k++;
        this.prefix = fin[0].cells.slice(0, k);
        return { ambiguous: true };
      }
      this.prefix = [];
    }
    const ext = this.legal.filter((m) => m.cells[0] === c);
    if (!ext.length) return { none: true };
    if (ext.every((m) => m.cells.length === 1)) return { done: ext };
    this.prefix = [c];
    return {};
  }
}

function sameCells(a, b) { return a.length === b.length && a.every((c, k) => c === b[k]); }
