import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { splitLines, splitWithoutFinalNewline } from "../../src/replay/lines";

/*
 * The replay keeps line arrays and file states in one V8 shape each, because a
 * new shape met late in a run makes V8 discard the optimized replay and diff
 * code, and every worker thread pays to compile it again (bench/README.md).
 * First: the splitter that makes that possible gives exactly what
 * `split("\n")` less the final empty string gives.
 */

test("splitWithoutFinalNewline equals split('\\n') without the empty string after a final newline", () => {
  const piece = fc.constantFrom("a", "", "\n", "\r\n", "\n\n", "xyz", "  }");
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const text = pieces.join("");
      const expected = text.split("\n");
      if (expected[expected.length - 1] === "" && text.endsWith("\n")) expected.pop();
      assert.deepEqual(splitWithoutFinalNewline(text), expected);
    }),
    { numRuns: 2000 },
  );
  assert.deepEqual(splitWithoutFinalNewline(""), [""]);
  assert.deepEqual(splitWithoutFinalNewline("\n"), [""]);
  assert.deepEqual(splitWithoutFinalNewline("a\n\n"), ["a", ""]);
  assert.deepEqual(splitLines("a\r\nb\r\n"), ["a", "b"]);
  assert.deepEqual(splitLines(""), []);
});

/*
 * Second: the shapes themselves, asked of V8 in a child process with
 * `--allow-natives-syntax`. Before the fix, a second split of the same short
 * (internalized) text came back "holey" from V8's split cache, `pop` on a
 * cached split made it holey too, `new Array(n).fill` was holey, and file
 * states had two or three shapes (with or without `starts`).
 */
test("line arrays are packed and file states share one shape, however they were made (V8 natives)", () => {
  const lines = fileURLToPath(new URL("../../src/replay/lines.ts", import.meta.url));
  const fileState = fileURLToPath(new URL("../../src/replay/file-state.ts", import.meta.url));
  const script = `
    const { splitLines, noLines } = await import(${JSON.stringify(lines)});
    const { stateFromText, transition, agentOwner, BASE } = await import(${JSON.stringify(fileState)});
    const holey = new Function("a", "return %HasHoleyElements(a)");
    const smi = new Function("a", "return %HasSmiElements(a)");
    const sameMap = new Function("a", "b", "return %HaveSameMap(a, b)");
    const out = {};
    // The same internalized string split twice: the second comes from V8's split cache.
    splitLines("one\\ntwo\\n");
    out.repeatedSplitHoley = holey(splitLines("one\\ntwo\\n"));
    out.crlfHoley = holey(splitLines("one\\r\\ntwo\\r\\n")) || holey(splitLines("one\\r\\ntwo\\r\\n"));
    out.emptyIsSmi = smi(noLines()) || smi(splitLines(""));
    const long = Array.from({ length: 200 }, (_, i) => "line " + i).join("\\n") + "\\n";
    const base = stateFromText("a\\nb\\n", BASE);
    const local = transition(stateFromText(long, BASE), long.replace("line 150", "changed"), agentOwner("c1")).state;
    const whole = transition(base, "x\\n", agentOwner("c2")).state;
    const same = transition(local, local.text, agentOwner("c3")).state;
    out.ownersHoley = holey(base.owners);
    out.statesShareShape = sameMap(base, local) && sameMap(base, whole) && sameMap(base, same);
    console.log(JSON.stringify(out));
  `;
  const r = spawnSync(
    process.execPath,
    ["--allow-natives-syntax", "--import", "tsx", "--input-type=module", "-e", script],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout.trim()), {
    repeatedSplitHoley: false,
    crlfHoley: false,
    emptyIsSmi: false,
    ownersHoley: false,
    statesShareShape: true,
  });
});
