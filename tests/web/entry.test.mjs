// entry.test.mjs — MoveEntry (web/board.js), the picks-to-move logic, on
// made-up move lists: plain moves, multi-step paths, a path that is a
// prefix of another, two paths to one square, choices, placements.
// Run: node --test tests/web/entry.test.mjs
import test from 'node:test';
import assert from 'node:assert/strict';
import { MoveEntry } from '../../web/board.js';

const mv = (text, cells, extra = {}) => ({ text, cells, ...extra });
const texts = (r) => (r.done || []).map((m) => m.text).sort();

test('from and to: one move', () => {
  const e = new MoveEntry([mv('a', [1, 2]), mv('b', [1, 3]), mv('c', [4, 5])]);
  assert.deepEqual(e.pick(1), {});
  assert.deepEqual(e.marks().target.sort(), [2, 3]);
  assert.deepEqual(texts(e.pick(3)), ['b']);
  assert.deepEqual(e.prefix, []);
});

test('a cell no move starts from does nothing; the selected cell again deselects', () => {
  const e = new MoveEntry([mv('a', [1, 2])]);
  assert.ok(e.pick(9).none);
  e.pick(1);
  assert.deepEqual(e.pick(1), {});
  assert.deepEqual(e.prefix, []);
});

test('another own piece while one is selected selects it instead', () => {
  const e = new MoveEntry([mv('a', [1, 2]), mv('c', [4, 5])]);
  e.pick(1);
  assert.deepEqual(e.pick(4), {});
  assert.deepEqual(e.prefix, [4]);
  assert.deepEqual(texts(e.pick(5)), ['c']);
});

test('a multi-capture clicked through its path, or straight to its end', () => {
  const legal = [mv('x', [1, 3, 5]), mv('y', [1, 3, 7]), mv('z', [2, 4])];
  const e = new MoveEntry(legal);
  e.pick(1);
  assert.deepEqual(e.pick(3), {});
  assert.deepEqual(e.marks().path, [1]);
  assert.deepEqual(texts(e.pick(7)), ['y']);
  const f = new MoveEntry(legal);
  f.pick(1);
  assert.deepEqual(texts(f.pick(5)), ['x'], 'the last square alone is enough when one path ends there');
});

test('two paths to the same square: the player clicks through', () => {
  const e = new MoveEntry([mv('p', [1, 3, 9]), mv('q', [1, 4, 9])]);
  e.pick(1);
  const r = e.pick(9);
  assert.ok(r.ambiguous);
  assert.deepEqual(e.prefix, [1]);
  assert.deepEqual(texts(e.pick(4)), []);
  assert.deepEqual(texts(e.pick(9)), ['q']);
});

test('a path that is a prefix of another: the last square again completes the short one', () => {
  const e = new MoveEntry([mv('s', [1, 3]), mv('l', [1, 3, 5])]);
  e.pick(1);
  assert.deepEqual(e.pick(3), {});
  assert.ok(e.marks().target.includes(3) && e.marks().target.includes(5));
  assert.deepEqual(texts(e.pick(3)), ['s']);
});

test('moves that differ by a choice come back together', () => {
  const e = new MoveEntry([mv('e8q', [1, 2], { choice: 'q' }), mv('e8n', [1, 2], { choice: 'n' }), mv('e8', [1, 3])]);
  e.pick(1);
  assert.deepEqual(texts(e.pick(2)), ['e8n', 'e8q']);
});

test('placements: one pick; moves without cells are left to buttons', () => {
  const e = new MoveEntry([mv('c4', [20]), mv('d3', [19]), mv('pass', [])]);
  assert.deepEqual(e.marks().hint.sort(), [19, 20]);
  assert.deepEqual(texts(e.pick(19)), ['d3']);
  assert.ok(e.pick(0).none);
});
