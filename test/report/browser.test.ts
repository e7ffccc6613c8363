/**
 * The report in a real browser (Debian's chromium, driven by playwright-core),
 * opened from disk: every chart draws an SVG with marks, nothing is logged
 * as an error, nothing is requested but `file:` URLs, and hostile text from
 * transcripts (prompts, file names, model names) neither runs nor adds
 * elements. Two reports are checked: one rendered from rows carrying every
 * payload (prompts included), and one made by the CLI from a real git
 * repository and a Claude Code transcript carrying payloads.
 *
 * Skipped, with a message, when /usr/bin/chromium is absent; CI installs it:
 *   apt-get update && apt-get install -y chromium fonts-dejavu-core
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import { type BrowserContext, chromium } from "playwright-core";
import { renderReport, writeReport } from "../../src/report";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { TestRepo } from "../helpers/git-repo";
import { hostileRows, PAYLOADS, SECRET } from "./payloads";

// Browser globals, used only inside page.evaluate callbacks (the project's tsconfig has no DOM library, on purpose).
declare const document: any;
declare const window: any;

const CHROMIUM = "/usr/bin/chromium";
const SKIP = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is absent: install it to run the real-browser test (apt-get update && apt-get install -y chromium fonts-dejavu-core)`;
if (SKIP) process.stderr.write(`SKIP test/report/browser.test.ts: ${SKIP}\n`);

let context: BrowserContext;
let profile: string;

before(async () => {
  if (SKIP) return;
  profile = mkdtempSync(join(tmpdir(), "sce-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
});

after(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

interface PageReport {
  errors: string[];
  requests: string[];
  charts: { id: string; marks: number }[];
  pwned: unknown;
  injected: number;
  scripts: number;
  text: string;
  /** The report's style sheet applied (inline on index.html, sessions/style.css on the session pages). */
  styled: boolean;
}

/** Opens a page from disk and reports what the browser did with it. */
async function visit(file: string, expectCharts: number): Promise<PageReport> {
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  if (expectCharts > 0) {
    await page.waitForFunction(
      (n) => document.querySelectorAll(".chart[data-rendered=true]").length >= n,
      expectCharts,
      { timeout: 20_000 },
    );
  }
  const result = await page.evaluate(() => ({
    charts: [...document.querySelectorAll(".chart")].map((el: any) => ({
      id: el.id,
      marks: el.querySelectorAll(
        "svg g[class*='mark-rect'] path, svg g[class*='mark-line'] path, svg g[class*='mark-rule'] line, svg g[class*='mark-tick'] path, svg g[class*='mark-symbol'] path, svg g[class*='mark-text'] text",
      ).length,
    })),
    pwned: window.__pwned as unknown,
    injected: document.querySelectorAll(
      "img, iframe, object, embed, #injected, body > svg, main svg:not(.chart svg):not(.marks)",
    ).length,
    scripts: document.querySelectorAll("script").length,
    // biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees (innerText), not hidden nodes' text
    text: document.body.innerText,
    styled: window.getComputedStyle(document.body).maxWidth === "1180px",
  }));
  await page.close();
  return { errors, requests, ...result };
}

function assertClean(name: string, r: PageReport, scripts: number): void {
  assert.deepEqual(r.errors, [], `${name}: console errors`);
  assert.deepEqual(
    r.requests.filter((u) => !u.startsWith("file:")),
    [],
    `${name}: requests other than file:`,
  );
  assert.equal(r.pwned, undefined, `${name}: a payload ran`);
  assert.equal(r.injected, 0, `${name}: a payload added elements`);
  assert.equal(r.scripts, scripts, `${name}: script elements`);
  assert.ok(r.styled, `${name}: the style sheet did not apply`);
  for (const c of r.charts) assert.ok(c.marks > 0, `${name}: ${c.id} drew no marks`);
}

test("rows carrying payloads in every text field: charts drawn, nothing runs, nothing injected, nothing fetched", {
  skip: SKIP,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), "sce-report-"));
  await writeReport(out, await renderReport(hostileRows(), { iterations: 200, svg: false }));

  const index = await visit(join(out, "index.html"), 10);
  assertClean("index.html", index, 8);
  assert.equal(index.charts.length, 10);
  assert.ok(index.text.includes("claude-<script>window.__pwned"), "the hostile model name is shown as text");
  assert.ok(!index.text.includes(SECRET));

  const s1 = await visit(join(out, "sessions", "s1.html"), 0);
  assertClean("sessions/s1.html", s1, 0);
  assert.ok(s1.text.includes(`Please fix ${PAYLOADS.script}`), "the prompt is shown as text");
  assert.ok(s1.text.includes(PAYLOADS.close), "the </script> prompt is shown as text");
  assert.ok(s1.text.includes("My key is sk-ant-[masked]"));
  assert.ok(s1.text.includes(`src/${PAYLOADS.img}.ts`), "the hostile file name is shown as text");

  const hostile = readdirSync(join(out, "sessions")).filter((f) => f.startsWith("s-"));
  assert.equal(hostile.length, 1, "the session with a hostile id gets a hashed page name");
  const s9 = await visit(join(out, "sessions", hostile[0]), 0);
  assertClean(hostile[0], s9, 0);
  assert.ok(s9.text.includes(PAYLOADS.svg));

  const all = await visit(join(out, "sessions", "index.html"), 0);
  assertClean("sessions/index.html", all, 1);
});

test("sortable tables sort in the browser and read as printed without a click", { skip: SKIP }, async () => {
  const out = mkdtempSync(join(tmpdir(), "sce-report-"));
  await writeReport(out, await renderReport(hostileRows(), { iterations: 50, svg: false, sessionPages: false }));
  const page = await context.newPage();
  await page.goto(pathToFileURL(join(out, "index.html")).href);
  // The cell reads "4 (57 %)": the strict units, then their share of the slice's units.
  const column = () =>
    page.$$eval("#slices-repo tbody tr td:nth-child(2)", (cells) =>
      cells.map((c) => Number.parseInt(c.textContent, 10)),
    );
  // Printed by units, largest first: acme/web 4, acme/api 2, then one unit each for the hostile repo name and s9's.
  const printed = await column();
  assert.deepEqual(
    printed,
    [...printed].sort((a, b) => b - a),
  );
  await page.click("#slices-repo thead th:nth-child(2)");
  assert.deepEqual(
    await column(),
    [...printed].sort((a, b) => a - b),
  );
  await page.close();
});

test("the headline's link to the exclusions opens their collapsed section, as does a URL ending in #exclusions", {
  skip: SKIP,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), "sce-report-"));
  await writeReport(out, await renderReport(hostileRows(), { iterations: 50, svg: false, sessionPages: false }));
  const page = await context.newPage();
  const open = () => page.$eval("details#exclusions", (d) => (d as unknown as { open: boolean }).open);
  await page.goto(pathToFileURL(join(out, "index.html")).href);
  assert.equal(await open(), false, "collapsed on arrival");
  await page.click('#headline a[href="#exclusions"]');
  await page.waitForFunction(() => (document.getElementById("exclusions") as unknown as { open: boolean }).open);
  assert.equal(await open(), true, "opened by the link");
  await page.goto(`${pathToFileURL(join(out, "index.html")).href}#exclusions`);
  await page.reload();
  assert.equal(await open(), true, "opened on arrival with the fragment");
  await page.close();
});

test("swe-chat-eval report on a real repository and a transcript carrying payloads", { skip: SKIP }, async () => {
  const repo = new TestRepo("sce-browser-repo-");
  const evilModel = `claude-${PAYLOADS.script}${PAYLOADS.close}`;
  const evilFile = `src/${PAYLOADS.img.replace(/\//g, "")}.ts`;
  const content = "export const a = 1;\nexport const b = 2;\n";
  const log = new ClaudeLog({ sessionId: "cccccccc-0000-0000-0000-000000000001", cwd: repo.dir })
    .prompt(`Add the module. ${PAYLOADS.script} ${PAYLOADS.img} ${PAYLOADS.close} key ${SECRET}`)
    .call("toolu_w", "Write", { file_path: join(repo.dir, evilFile), content })
    .result("toolu_w", writeResult(join(repo.dir, evilFile), content, null));
  const text = log.text().replaceAll('"claude-sonnet-4-5-20250929"', JSON.stringify(evilModel));
  repo.commit("base", { "README.md": "hello\n" });
  repo.commit("add the module", { [evilFile]: content });
  const projects = mkdtempSync(join(tmpdir(), "sce-browser-projects-"));
  mkdirSync(join(projects, "-work-app"));
  writeFileSync(join(projects, "-work-app", "cccccccc-0000-0000-0000-000000000001.jsonl"), text);
  const out = mkdtempSync(join(tmpdir(), "sce-browser-out-"));
  const run = spawnSync(
    process.execPath,
    ["bin/swe-chat-eval.js", "report", projects, "--repo", repo.dir, "--out", out, "--quiet"],
    { encoding: "utf8" },
  );
  assert.equal(run.status, 0, run.stderr);

  const index = await visit(join(out, "index.html"), 10);
  assertClean("index.html", index, 8);
  assert.ok(index.text.includes(evilModel), "the model name arrives as text");
  // The unit was formed: 2 committed lines, both the agent's.
  assert.match(index.text, /Over 1 unambiguous units from 1 sessions/);
  const page = await visit(join(out, "sessions", "cccccccc-0000-0000-0000-000000000001.html"), 0);
  assertClean("session page", page, 0);
  assert.ok(page.text.includes(evilFile), "the file name arrives as text in the timeline");
  assert.ok(page.text.includes(evilModel));
  assert.ok(!page.text.includes(SECRET));
});
