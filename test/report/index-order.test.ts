/**
 * index.html reads as a results section first (issue 19 item 5), and its slice tables set the figures with groups
 * beside the strict ones (issue 17 item 2): checked on the report the CLI writes for the bundled sample.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { formatInterval, formatPct } from "../../src/charts";
import type { GroupUnitRow, SessionRow, UnitRow } from "../../src/model";
import { isHeadlineUnit, RATIO_NAMES, type SliceSummary, summarizeUnits } from "../../src/tables";

const SEED = 7;
let out: string;
let html: string;

before(() => {
  const sample = { SWE_CHAT_EVAL_SAMPLE_DIR: join(mkdtempSync(join(tmpdir(), "sce-order-sample-")), "corpus") };
  out = mkdtempSync(join(tmpdir(), "sce-order-"));
  const run = spawnSync(
    process.execPath,
    ["bin/swe-chat-eval.js", "report", "--out", out, "--seed", String(SEED), "--quiet"],
    {
      encoding: "utf8",
      env: { ...process.env, ...sample },
    },
  );
  assert.equal(run.status, 0, run.stderr);
  html = readFileSync(join(out, "index.html"), "utf8");
});

const json = <T>(name: string): T[] => JSON.parse(readFileSync(join(out, `${name}.json`), "utf8"));

test("the headline, then the charts, then the slice tables; method notes, exclusions and diagnostics after them", () => {
  const at = (needle: string) => {
    const i = html.indexOf(needle);
    assert.ok(i >= 0, `no ${needle}`);
    return i;
  };
  const order = [
    '<section id="headline">',
    '<figure class="chart-figure"',
    '<section id="slices">',
    '<details id="method-notes">',
    '<details id="exclusions">',
    '<details id="diagnostics-details">',
  ].map(at);
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
    "parts out of order",
  );
  // The diagnostics table keeps its id, inside its collapsed part.
  assert.ok(at('<table class="sortable" id="diagnostics">') > at('<details id="diagnostics-details">'));
});

test("method notes, exclusions and diagnostics are collapsed, each summary naming its part and its count", () => {
  const parts = [...html.matchAll(/<details([^>]*)>\s*<summary>([^<]*)<\/summary>/g)];
  assert.equal(parts.length, 3);
  for (const [, attrs] of parts) assert.doesNotMatch(attrs, /\bopen\b/, "a part starts open");
  const summaries = parts.map((p) => p[2]);
  // The sample: 15 units, 10 strict; the 5 left out are counted per reason in units.json.
  const units = json<UnitRow>("units");
  const reasons = new Set(units.filter((u) => !isHeadlineUnit(u)).map((u) => u.ambiguity ?? "not-computed"));
  const excluded = units.filter((u) => !isHeadlineUnit(u)).length;
  assert.equal(excluded, 5);
  assert.match(summaries[0], /^Method notes: what is measured, \d+ attribution methods? used/);
  assert.equal(
    summaries[1],
    `Left out of the headline numbers: ${excluded} units, ${reasons.size} reason${reasons.size === 1 ? "" : "s"}`,
  );
  const diagnostics = json<{ code: string }>("diagnostics");
  const codes = new Set(diagnostics.map((d) => d.code)).size;
  assert.equal(
    summaries[2],
    `Diagnostics: ${diagnostics.length} diagnostic${diagnostics.length === 1 ? "" : "s"} in ${codes} code${codes === 1 ? "" : "s"}`,
  );
  // Nothing dropped: every diagnostics code has its row, every reason its row.
  const diagnosticsTable = html.slice(
    html.indexOf('id="diagnostics"'),
    html.indexOf("</table>", html.indexOf('id="diagnostics"')),
  );
  assert.equal((diagnosticsTable.match(/<tr class="sev-/g) ?? []).length, codes);
  for (const r of reasons) assert.ok(html.includes(`<td><code>${r}</code></td>`), r);
});

interface Cell {
  text: string;
  sort: string | undefined;
}

/** The cells of the row of `table` whose first cell is `slice`; a cell's second line (an interval) joins its text after a space. */
function sliceRowCells(table: string, slice: string): Cell[] {
  const start = html.indexOf(`id="${table}"`);
  assert.ok(start >= 0, table);
  const body = html.slice(start, html.indexOf("</table>", start));
  const row = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .map((m) =>
      [...m[1].matchAll(/<td[^>]*?(?: data-sort="([^"]*)")?>([^<]*)(?:<span class="sub">([^<]*)<\/span>)?<\/td>/g)].map(
        (c) => ({
          sort: c[1],
          text: c[3] ? `${c[2]} ${c[3]}` : c[2],
        }),
      ),
    )
    .find((cells) => cells[0]?.text === slice);
  assert.ok(row, `no row ${slice} in ${table}`);
  return row;
}

const ratioTexts = (s: SliceSummary) =>
  RATIO_NAMES.map((name) => {
    const r = s.ratios[name];
    const interval = formatInterval(r.ci_low, r.ci_high);
    return { text: `${formatPct(r.pooled)}${interval ? ` ${interval}` : ""}`, sort: String(r.pooled) };
  });

test("a slice row's strict and group figures are summarizeUnits over that slice's units and group rows", () => {
  const units = json<UnitRow>("units");
  const groups = json<GroupUnitRow>("group_units");
  const sessions = json<SessionRow>("sessions");
  // The sample's four models are fewer than the report's top 10, so no model is folded into "other": the slice
  // "claude-opus-4-6" is exactly the rows whose model is that name. Each slice's bootstrap starts from the seed
  // afresh (summarizeUnits draws per slice), so summarizing the filtered rows as one slice, with the report's seed
  // and its 1,000 resamples, gives the row's pooled figures and intervals to the last digit.
  const model = "claude-opus-4-6";
  const mine = units.filter((u) => u.model === model);
  const mineGroups = groups.filter((g) => g.model === model);
  const strict = summarizeUnits(mine, sessions, () => "all", { seed: SEED, iterations: 1000 })[0];
  const grouped = summarizeUnits(mineGroups, sessions, () => "all", { seed: SEED, iterations: 1000 })[0];
  const cells = sliceRowCells("slices-model", model);
  // slice, strict units (share), sessions, committed lines, 3 strict ratios, group units (share), 3 group ratios, tokens, US$.
  assert.equal(cells.length, 13);
  // Shares: of the slice's 6 units, 4 are strict; with groups every one of the 6 is in an attributable group
  // (a unit is covered when its session has a headline group row in its repository, as the headline counts).
  assert.equal(mine.length, 6);
  assert.equal(strict.units, 4);
  assert.deepEqual(cells[1], { text: "4 (67 %)", sort: "4" });
  const attributable = new Set(mineGroups.filter(isHeadlineUnit).map((g) => `${g.session_id}\u0000${g.repo}`));
  const covered = mine.filter((u) => attributable.has(`${u.session_id}\u0000${u.repo}`)).length;
  assert.equal(covered, 6);
  assert.deepEqual(cells[7], { text: "6 (100 %)", sort: "6" });
  assert.equal(cells[2].text, String(strict.sessions));
  assert.equal(cells[3].text, String(strict.committed_lines));
  assert.deepEqual(cells.slice(4, 7), ratioTexts(strict));
  assert.deepEqual(cells.slice(8, 11), ratioTexts(grouped));
  // The two views differ on this slice (two more units enter with groups), so the columns are not one view twice.
  assert.notDeepEqual(cells.slice(4, 7), cells.slice(8, 11));
});
