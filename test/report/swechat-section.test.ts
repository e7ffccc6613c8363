/**
 * The report's "SWE-chat's figures" section (templates/partials/swechat-figures.hbs): on the sample's SWE-chat
 * tables it is there, with its lines and every chart drawn in Chromium; on input without the dataset's labels it is
 * absent. Skipped, with a message, when /usr/bin/chromium is absent (as test/report/browser.test.ts).
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, test } from "node:test";
import { chromium } from "playwright-core";
import { analyzeSwechatDataset } from "../../src/analyze/analyze-swechat";
import type { AnalysisRows } from "../../src/model";
import { renderReport, writeReport } from "../../src/report";
import { ensureSampleCorpus } from "../../src/sample";

declare const document: any;

const CHROMIUM = "/usr/bin/chromium";
const SKIP = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent: install it to run the real-browser test`;
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function sampleRows(): Promise<AnalysisRows> {
  const rows: AnalysisRows = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  await analyzeSwechatDataset((await ensureSampleCorpus()).sweChatDir, { idleLimitS: 300, threads: 1 }, rows);
  return rows;
}

test("the section is shown when the input holds SWE-chat's labels, its charts drawn in a browser", {
  skip: SKIP,
}, async () => {
  const rows = await sampleRows();
  const out = mkdtempSync(join(tmpdir(), "sce-swechat-report-"));
  dirs.push(out);
  await writeReport(out, await renderReport(rows, { iterations: 100, sessionPages: false }));
  const html = readFileSync(join(out, "index.html"), "utf8");
  assert.match(html, /<h2>SWE-chat's figures<\/h2>/);
  // Handlebars escapes "=" in text as &#x3D;.
  assert.match(html, /sessions with session_success ≥ 50: published 87.5 % · here 84.6 % \(n &#x3D; 13\)/);
  // Ten figures, thirteen charts, each also an SVG file.
  assert.equal((html.match(/<h3 id="swechat-/g) ?? []).length, 10);
  const paperCharts = readdirSync(join(out, "figures")).filter((f) => f.startsWith("swechat-"));
  assert.equal(paperCharts.length, 13);

  const profile = mkdtempSync(join(tmpdir(), "sce-chromium-"));
  dirs.push(profile);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(pathToFileURL(join(out, "index.html")).href, { waitUntil: "load" });
    await page.waitForFunction(
      () => document.querySelectorAll("#swechat-figures .chart[data-rendered=true]").length >= 13,
      undefined,
      { timeout: 30_000 },
    );
    const drawn = await page.evaluate(() =>
      [...document.querySelectorAll("#swechat-figures .chart")].map(
        (el: any) => el.querySelectorAll("svg path, svg line, svg text").length,
      ),
    );
    assert.equal(drawn.length, 13);
    for (const n of drawn) assert.ok(n > 0);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("no section for input without the dataset's labels", async () => {
  const rows = await sampleRows();
  const unlabelled: AnalysisRows = {
    ...rows,
    sessions: rows.sessions.map((s) => ({
      ...s,
      user_persona: null,
      session_success: null,
      entire_agent_percentage: null,
    })),
    prompts: (rows.prompts ?? []).map((p) => ({ ...p, prompt_intent: null, prompt_pushback: null })),
  };
  const files = await renderReport(unlabelled, { iterations: 50, sessionPages: false, svg: false });
  const index = String(files.find((f) => f.path === "index.html")!.content);
  assert.doesNotMatch(index, /SWE-chat's figures/);
});
