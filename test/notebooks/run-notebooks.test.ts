/**
 * The headless notebook runner (scripts/run-notebooks.cjs) on the real
 * notebooks and on small temporary ones built to fail. Every run is a real
 * child process (plain `node`, as `npm run notebooks` starts it): tslab's
 * TypeScript 5.0 compiles the cells and `src/`, the sample corpus is
 * analysed, charts are rendered to SVG by vega.
 */
import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { TABLE_COLUMNS } from "../../src/model";

const ROOT = process.cwd();
const RUNNER = join(ROOT, "scripts", "run-notebooks.cjs");
const NOTEBOOKS = readdirSync(join(ROOT, "notebooks"))
  .filter((f) => f.endsWith(".ipynb"))
  .sort();

interface Output {
  output_type: string;
  name?: string;
  text?: string[];
  data?: Record<string, unknown>;
}
interface Cell {
  cell_type: string;
  source: string[] | string;
  execution_count?: number | null;
  outputs?: Output[];
}
interface Notebook {
  cells: Cell[];
  metadata: Record<string, unknown>;
}

function run(args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [RUNNER, ...args], { cwd: ROOT, encoding: "utf8", timeout: 600_000 });
}

/** A notebook with one markdown cell first, then the given code cells. */
function notebook(codeCells: string[]): string {
  const cells = [
    { cell_type: "markdown", id: "md", metadata: {}, source: ["# test"] },
    ...codeCells.map((source, i) => ({
      cell_type: "code",
      id: `c${i + 1}`,
      metadata: {},
      execution_count: null,
      outputs: [],
      source,
    })),
  ];
  return `${JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`;
}

const code = (nb: Notebook) => nb.cells.filter((c) => c.cell_type === "code");
const text = (cell: Cell) =>
  (cell.outputs ?? [])
    .map((o) =>
      o.output_type === "stream"
        ? (o.text ?? []).join("")
        : String((o.data?.["text/plain"] as string[] | undefined)?.join("") ?? ""),
    )
    .join("");

describe("every notebook in notebooks/", () => {
  const out = mkdtempSync(join(tmpdir(), "nb-out-"));
  const executed = new Map<string, Notebook>();
  const committed = new Map(NOTEBOOKS.map((f) => [f, readFileSync(join(ROOT, "notebooks", f), "utf8")]));
  let result: SpawnSyncReturns<string>;

  before(() => {
    result = run(["--out", out]);
    for (const f of NOTEBOOKS)
      if (existsSync(join(out, f))) executed.set(f, JSON.parse(readFileSync(join(out, f), "utf8")));
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  test("runs top to bottom: exit 0, every code cell executed in order with no error output", () => {
    assert.equal(result.status, 0, result.stderr);
    assert.ok(NOTEBOOKS.length >= 3, `notebooks found: ${NOTEBOOKS.join(", ")}`);
    for (const f of NOTEBOOKS) {
      const nb = executed.get(f);
      assert.ok(nb, `${f} was written to --out`);
      const cells = code(nb);
      assert.deepEqual(
        cells.map((c) => c.execution_count),
        cells.map((_, i) => i + 1),
        `${f}: execution counts 1..n`,
      );
      for (const [i, c] of cells.entries()) {
        const bad = (c.outputs ?? []).filter(
          (o) => o.output_type === "error" || (o.output_type === "stream" && o.name === "stderr"),
        );
        assert.deepEqual(bad, [], `${f} cell [${i + 1}] wrote to stderr`);
      }
    }
  });

  test("--out leaves the committed notebooks untouched", () => {
    for (const [f, before] of committed) assert.equal(readFileSync(join(ROOT, "notebooks", f), "utf8"), before, f);
  });

  test("01 prints the four tables with the contract's column counts", () => {
    const nb = executed.get("01-explore-tables.ipynb")!;
    const listing = text(code(nb)[1]);
    // The sample corpus (src/sample) has 15 units and 13 sessions (test/sample.test.ts works them out).
    assert.match(listing, new RegExp(`units\\s+15 rows × ${TABLE_COLUMNS.units.length} columns`));
    assert.match(listing, new RegExp(`sessions\\s+13 rows × ${TABLE_COLUMNS.sessions.length} columns`));
    assert.match(listing, new RegExp(`diagnostics\\s+\\d+ rows × ${TABLE_COLUMNS.diagnostics.length} columns`));
  });

  test("02 shows the pooled headline figures worked out by hand from the sample's units", () => {
    // The 10 unambiguous units of the sample (see notebook 01's unit table):
    //   survived 20+3+7+3+1+12+4+19+9+2 = 80
    //   final    20+3+7+12+1+12+4+21+9+2 = 91  → survival 80/91 = 87.9 %
    //   produced 20+4+7+12+1+12+4+25+9+2 = 96  → efficiency 80/96 = 83.3 %
    //   committed 20+5+7+3+5+12+4+21+9+2 = 88  → agent-authored 80/88 = 90.9 %
    const nb = executed.get("02-attribution.ipynb")!;
    const headline = text(code(nb)[2]);
    assert.match(headline, /\|code survival rate\|87\.9 %\|/);
    assert.match(headline, /\|coding efficiency\|83\.3 %\|/);
    assert.match(headline, /\|agent-authored\|90\.9 %\|/);
    // Coding modes: 3 collaborative units (60 %, 20 %, 90.5 % agent-authored; 5+5+21 = 31 lines), 7 vibe (88-31 = 57 lines).
    const modes = code(nb)
      .map(text)
      .find((t) => t.includes("|coding_mode|units|committed_lines|share_of_units|"));
    assert.ok(modes, "a coding-mode table");
    assert.match(modes, /\|collaborative\|3\|31\|30\.0 %\|/);
    assert.match(modes, /\|vibe\|7\|57\|70\.0 %\|/);
  });

  test("03 shows dollars per committed line by mode, worked out from the sessions' costs", () => {
    // collaborative: sessions 2dd769a3, 630fca82, 99517818 cost 0.177678 + 0.2422105 + 0.222058 = 0.6419465 US$ over 31 lines = 0.0207
    // vibe: 7 sessions, 1.40927725 US$ over 57 lines = 0.0247
    const nb = executed.get("03-effort-and-cost.ipynb")!;
    const byMode = text(code(nb)[2]);
    assert.match(byMode, /\|collaborative\|3\|3\|31\|[\d,]+\|\$0\.0207\|/);
    assert.match(byMode, /\|vibe\|7\|7\|57\|[\d,]+\|\$0\.0247\|/);
  });

  test("04 scores the sample against the single-turn benchmark and recomputes the worked example", () => {
    const nb = executed.get("04-taskflow.ipynb")!;
    const all = code(nb).map(text).join("\n");
    // Target lengths: 8 sessions of 1 prompt, 5 of 2 (the sample's sessions table); benchmark: all 1.
    // M = {1: 21/26, 2: 5/26}; KL(P‖M) = 8/13·log2(16/21) + 5/13·log2(2) = 0.14319; KL(Q‖M) = log2(26/21) = 0.30812;
    // JSD = 0.22566, so S_L = 0.774.
    assert.match(all, /\|S_L \(lengths\)\|0\.774\|/);
    assert.match(all, /worked example: S_L 0\.688722 {2}S_T 0\.904563 {2}S_R 0\.500000 {2}TFAS 67\.7877/);
    assert.match(all, /paper Table 2, Split: TFAS 59\.58/);
  });

  test("05 puts every subset instance of every run in one class, and the paired comparison adds up", () => {
    const nb = executed.get("05-swebench.ipynb")!;
    const table = text(code(nb)[2]);
    const rows = table.split("\n").filter((l) => l.startsWith("|run-"));
    assert.equal(rows.length, 3, table);
    for (const row of rows) {
      const [, run, , total, resolved, , unresolved, regression, notApplied, empty, error, missing] = row.split("|");
      const classes = [resolved, unresolved, regression, notApplied, empty, error, missing].map(Number);
      assert.equal(
        classes.reduce((a, b) => a + b, 0),
        Number(total),
        `${run}: the classes add up to the subset size`,
      );
      assert.equal(Number(total), 30);
    }
    const cmp = text(code(nb)[4]);
    const m =
      /on (\d+) instances both attempted\n {2}both resolved (\d+), only \S+ (\d+), only \S+ (\d+), neither (\d+)/.exec(
        cmp,
      );
    assert.ok(m, cmp);
    const [n, both, aOnly, bOnly, neither] = m.slice(1).map(Number);
    assert.equal(both + aOnly + bOnly + neither, n);
    assert.match(
      cmp,
      new RegExp(
        `resolve rate ${((100 * (both + aOnly)) / n).toFixed(1)} % vs ${((100 * (both + bOnly)) / n).toFixed(1)} %`,
      ),
    );
  });

  test("06 prints each SWE-chat figure beside its published value and draws its charts", () => {
    const nb = executed.get("06-swe-chat-paper.ipynb")!;
    // After the two set-up cells (imports and DATA; loading and `show`), one code cell per figure, in the paper's order.
    const figures = code(nb).slice(2);
    assert.equal(figures.length, 10);
    for (const [i, cell] of figures.entries()) {
      assert.match(text(cell), /: published .+ · here .+ \(n = \d+\)/, `figure ${i + 1}`);
      assert.ok(
        (cell.outputs ?? []).some((o) => o.data?.["application/vnd.vegalite.v5+json"]),
        `figure ${i + 1} draws a chart`,
      );
    }
    // On the sample: the hand-given labels give 11 of 13 sessions a success score of 50 or more.
    assert.match(text(figures[9]), /session_success ≥ 50: published 87\.5 % · here 84\.6 % \(n = 13\)/);
  });

  test("charts are display bundles: the Vega-Lite spec, an SVG with marks drawn from it, and the caption", () => {
    let charts = 0;
    for (const nb of executed.values()) {
      for (const cell of code(nb)) {
        for (const o of cell.outputs ?? []) {
          const spec = o.data?.["application/vnd.vegalite.v5+json"] as Record<string, unknown> | undefined;
          if (!spec) continue;
          charts++;
          assert.equal(typeof spec, "object", "the spec is stored as JSON, not as a string");
          assert.match(String(spec.$schema), /vega-lite/);
          const svg = (o.data!["image/svg+xml"] as string[]).join("");
          assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
          assert.match(svg, /class="mark-(rect|rule|symbol|text|tick|area|line)/, "the SVG has marks");
          assert.notEqual((o.data!["text/plain"] as string[]).join("").trim(), "", "the title (and caption) as text");
        }
      }
    }
    // 02 draws 4 slice charts, the histogram, the mode share over time and the survival spread; 03 two; 04 five; 05 four.
    assert.ok(charts >= 18, `charts: ${charts}`);
  });

  test("outputs are deterministic: re-running an executed notebook reproduces it byte for byte (--check)", () => {
    const again = run(["--check", join(out, "02-attribution.ipynb")]);
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /outputs match the file/);
  });
});

describe("a failing notebook", () => {
  const dir = mkdtempSync(join(tmpdir(), "nb-fail-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("stops at the first failing cell with exit 1, prints that cell and its error, writes nothing", () => {
    const marker = join(dir, "third-cell-ran");
    const file = join(dir, "failing.ipynb");
    const source = notebook([
      'console.log("first cell ran");',
      'const answer: number = 41;\nif (answer !== 42) throw new Error("boom in the second code cell");',
      `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x");`,
    ]);
    writeFileSync(file, source);
    const r = run([file]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    // Cell 3 of the notebook is its second code cell (the first cell is markdown).
    assert.match(r.stderr, /failing\.ipynb: cell 3 \(code cell \[2\]\) failed/);
    assert.match(r.stderr, /--- cell source ---\nconst answer: number = 41;/);
    assert.match(r.stderr, /Error: boom in the second code cell/);
    assert.equal(existsSync(marker), false, "no cell runs after the failing one");
    assert.equal(readFileSync(file, "utf8"), source, "the failed notebook is not rewritten");
  });

  test("a type error fails its cell before anything runs", () => {
    const file = join(dir, "type-error.ipynb");
    writeFileSync(file, notebook(['const n: number = "not a number";\nconsole.log("RAN" + "_MARK");']));
    const r = run([file]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /cell 2 \(code cell \[1\]\) failed/);
    assert.match(r.stderr, /Type 'string' is not assignable to type 'number'/);
    assert.doesNotMatch(r.stdout + r.stderr, /RAN_MARK/);
  });

  test("a rejected promise nobody awaited fails the cell that made it", () => {
    const file = join(dir, "rejection.ipynb");
    writeFileSync(
      file,
      notebook(['Promise.reject(new Error("lost rejection"));\nconsole.log("sync part ran");', 'console.log("next");']),
    );
    const r = run([file]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /cell 2 \(code cell \[1\]\) failed/);
    assert.match(r.stderr, /unhandled rejection: Error: lost rejection/);
  });
});

describe("notebooks run in one process but do not share variables", () => {
  const dir = mkdtempSync(join(tmpdir(), "nb-iso-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("a variable of the first notebook is not defined in the second", () => {
    writeFileSync(join(dir, "a.ipynb"), notebook(["const secret = 42;\nconsole.log(`a: ${typeof secret}`);"]));
    // biome-ignore lint/suspicious/noTsIgnore: the directive is part of the cell under test, not of this file
    // @ts-ignore lets the cell compile; at run time `secret` is undeclared unless a's executor leaked.
    writeFileSync(join(dir, "b.ipynb"), notebook(["// @ts-ignore\nconsole.log(`b: ${typeof secret}`);"]));
    const out = join(dir, "out");
    const r = run([join(dir, "a.ipynb"), join(dir, "b.ipynb"), "--out", out]);
    assert.equal(r.status, 0, r.stderr);
    const a = JSON.parse(readFileSync(join(out, "a.ipynb"), "utf8")) as Notebook;
    const b = JSON.parse(readFileSync(join(out, "b.ipynb"), "utf8")) as Notebook;
    assert.equal(text(code(a)[0]), "a: number\n");
    assert.equal(text(code(b)[0]), "b: undefined\n");
  });
});

test("usage errors exit 2", () => {
  assert.equal(run(["--no-such-option"]).status, 2);
  assert.equal(run([join(tmpdir(), "no-such-notebook.ipynb")]).status, 2);
});
