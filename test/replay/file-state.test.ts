import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  agentOwner,
  BASE,
  type FileState,
  OUTSIDE,
  stateFromText,
  transition,
  transitionWhole,
} from "../../src/replay/file-state";
import { splitLines } from "../../src/replay/lines";

/*
 * `transition` diffs only the region around a change in long texts; it must
 * give exactly what diffing the whole line arrays gives (`transitionWhole`):
 * the same lines, the same owner for every line, the same counts. Texts are
 * built from a small alphabet of lines so that repeated lines make the Myers
 * diff's choices matter, and long enough (≥ 2 KB) to take the local path.
 */

const LINE_POOL = ["a", "b", "}", "", "  return x;", "x".repeat(300), "\t{"];

const line = fc.constantFrom(...LINE_POOL);
const body = fc.array(line, { minLength: 0, maxLength: 60 });
const filler = Array.from({ length: 40 }, (_, i) => `const v${i} = ${i};`).join("\n") + "\n";

/** A text of at least 2 KB: filler around random lines, with or without a final newline, sometimes with CRLF. */
const textOf = (head: string[], tail: string[], finalNewline: boolean, crlf: boolean): string => {
  let t = head.join("\n") + "\n" + filler + filler + filler + tail.join("\n") + (finalNewline ? "\n" : "");
  if (crlf) t = t.split("\n").join("\r\n");
  return t;
};

const edit = fc.record({
  at: fc.nat(),
  remove: fc.nat({ max: 8 }),
  insert: fc.array(line, { maxLength: 8 }),
  charLevel: fc.boolean(),
});

function apply(text: string, e: { at: number; remove: number; insert: string[]; charLevel: boolean }): string {
  if (e.charLevel) {
    const at = e.at % (text.length + 1);
    return text.slice(0, at) + e.insert.join("\n") + text.slice(Math.min(text.length, at + e.remove));
  }
  const lines = text.split("\n");
  const at = e.at % (lines.length + 1);
  lines.splice(at, e.remove, ...e.insert);
  return lines.join("\n");
}

function same(actual: FileState, expected: FileState, where: string): void {
  assert.equal(actual.text, expected.text, where);
  assert.deepEqual(actual.lines, expected.lines, where);
  assert.deepEqual(
    actual.owners.map((o) => `${o.origin}:${o.call}`),
    expected.owners.map((o) => `${o.origin}:${o.call}`),
    where,
  );
}

test("transition around the change equals the whole-file diff over chains of random edits", () => {
  let local = 0;
  let total = 0;
  fc.assert(
    fc.property(
      body,
      body,
      fc.boolean(),
      fc.nat({ max: 4 }).map((x) => x === 0),
      fc.array(edit, { minLength: 1, maxLength: 6 }),
      (head, tail, nl, crlf, edits) => {
        let fast = stateFromText(textOf(head, tail, nl, crlf), BASE);
        let slow = fast;
        edits.forEach((e, n) => {
          const next = apply(fast.text, e);
          const owner = n % 3 === 2 ? OUTSIDE : agentOwner(`call-${n}`);
          const f = transition(fast, next, owner);
          const s = transitionWhole(slow, next, owner);
          assert.equal(f.inserted, s.inserted);
          assert.equal(f.deleted, s.deleted);
          same(f.state, s.state, `edit ${n}`);
          // The carried line offsets must describe the new text (the next edit relies on them).
          total++;
          if (f.state.starts) {
            local++;
            assert.equal(f.state.starts.length, f.state.lines.length + 1);
            assert.equal(f.state.starts[f.state.lines.length], next.length);
            f.state.lines.forEach((l, i) =>
              assert.equal(next.slice(f.state.starts![i], f.state.starts![i] + l.length), l),
            );
          }
          fast = f.state;
          slow = s.state;
        });
      },
    ),
    { numRuns: 3000, seed: 20261130 },
  );
  // Most generated texts are long and LF-only: the local path must have been exercised.
  assert.ok(local > total / 3, `local path taken ${local} of ${total} times`);
});

test("hand-worked: a line changed in the middle of a long file keeps every other owner", () => {
  // 400 base lines (over 2 KB, so the local path runs); the agent rewrites line 50
  // ("line 50" → "LINE 50") and appends one line. Whole-file reasoning: 399 lines
  // equal (keep base), 1 deleted, 2 inserted (agent) at indexes 50 and 400.
  const base = Array.from({ length: 400 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const next = base.replace("line 50\n", "LINE 50\n") + "tail\n";
  const t = transition(stateFromText(base, BASE), next, agentOwner("c1"));
  assert.equal(t.inserted, 2);
  assert.equal(t.deleted, 1);
  assert.equal(t.state.lines.length, 401);
  assert.deepEqual(t.state.lines, splitLines(next));
  const agentAt = t.state.owners.flatMap((o, i) => (o.origin === "agent" ? [i] : []));
  assert.deepEqual(agentAt, [50, 400]);
  assert.ok(t.state.starts, "the local path ran");
});

test("a NUL byte after the first 8000 characters does not make the changed middle binary", () => {
  // The file is text (no NUL in its first 8000 characters), so a line holding a
  // NUL further down is an ordinary line; the middle the local path splits
  // starts near that line and must not be judged binary on its own.
  const base = "x".repeat(100).concat("\n").repeat(90) + "a\u0000b\n" + "tail\n";
  const next = base.replace("a\u0000b\n", "a\u0000b changed\n");
  const fast = transition(stateFromText(base, BASE), next, agentOwner("c"));
  const slow = transitionWhole(stateFromText(base, BASE), next, agentOwner("c"));
  assert.equal(fast.inserted, 1);
  assert.equal(fast.deleted, 1);
  same(fast.state, slow.state, "NUL line");
});
