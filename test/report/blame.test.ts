/**
 * The session pages' blame view and group explanation in a real browser
 * (Chromium, as test/report/browser.test.ts): on the bundled sample every
 * unit's counts shown equal its row and the lines shown per owner add up to
 * them; one unit's line numbers are checked by hand against git's diff; and
 * a committed file carrying script payloads stays text.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import { type BrowserContext, chromium } from "playwright-core";
import type { GroupUnitRow, UnitRow } from "../../src/model";
import { stemsFor } from "../../src/report";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { TestRepo } from "../helpers/git-repo";
import { PAYLOADS } from "./payloads";

declare const document: any;
declare const window: any;

const CHROMIUM = "/usr/bin/chromium";
const SKIP = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent: install it to run the real-browser test`;

let context: BrowserContext;
let profile: string;

before(async () => {
  if (SKIP) return;
  profile = mkdtempSync(join(tmpdir(), "sce-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
});

after(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

interface Blame {
  title: string;
  status: string | null;
  counts: Record<string, string>;
  lines: { owner: string; n: string; text: string; call: string; file: string }[];
}

/** What a session page shows: each blame block's counts and lines, and whether anything ran or was injected. */
async function readPage(file: string) {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  const result = await page.evaluate(() => ({
    blame: [...document.querySelectorAll(".blame-unit")].map((u: any) => ({
      title: u.querySelector("h3").textContent,
      status: u.querySelector("p.status")?.textContent ?? null,
      counts: Object.fromEntries(
        [...u.querySelectorAll(".owner-counts li[data-owner]")].map((li: any) => [
          li.dataset.owner,
          li.querySelector(".count").textContent,
        ]),
      ),
      lines: [...u.querySelectorAll("table.blame tr")].map((tr: any) => ({
        owner: tr.dataset.owner,
        n: tr.querySelector(".ln").textContent,
        text: tr.querySelector(".code").textContent,
        call: tr.querySelector(".call").textContent,
        file: tr.closest(".table-wrap").previousElementSibling.querySelectorAll("code")[1].textContent,
      })),
    })),
    groups: [...document.querySelectorAll(".group")].map((g: any) => ({
      owners: Object.fromEntries(
        [...g.querySelectorAll(".group-owners li[data-owner]")].map((li: any) => [
          li.textContent.replace(/^\w /, "").replace(/: .*$/, ""),
          li.querySelector(".count").textContent,
        ]),
      ),
      commits: g.querySelectorAll(".group-commits li").length,
      links: [...g.querySelectorAll(".group-sessions a")].map((a: any) => a.getAttribute("href")),
    })),
    pwned: window.__pwned as unknown,
    injected: document.querySelectorAll("img, iframe, object, embed, #injected, main svg").length,
    scripts: document.querySelectorAll("script").length,
  }));
  await page.close();
  return { errors, ...result } as {
    errors: string[];
    blame: Blame[];
    groups: { owners: Record<string, string>; commits: number; links: string[] }[];
    pwned: unknown;
    injected: number;
    scripts: number;
  };
}

const num = (n: number | null) => (n === null ? "–" : n.toLocaleString("en-US"));

test("sample: every unit's counts shown equal its row, and its lines per owner add up to them", {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), "sce-blame-sample-"));
  const run = spawnSync(process.execPath, ["bin/swe-chat-eval.js", "report", "--out", out, "--quiet"], {
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stderr);
  const units = JSON.parse(readFileSync(join(out, "units.json"), "utf8")) as UnitRow[];
  const groups = JSON.parse(readFileSync(join(out, "group_units.json"), "utf8")) as GroupUnitRow[];
  const stems = stemsFor([...new Set([...units.map((u) => u.session_id), ...groups.map((g) => g.session_id)])]);
  let checked = 0;
  let groupsChecked = 0;
  let flagged = 0;
  for (const [id, stem] of stems) {
    const page = await readPage(join(out, "sessions", `${stem}.html`));
    assert.deepEqual(page.errors, []);
    for (const b of page.blame) {
      const strict = b.title.startsWith("Strict unit");
      const row = strict
        ? units.find((u) => u.session_id === id && b.title.endsWith(u.commit_sha.slice(0, 12)))
        : groups.find((g) => g.session_id === id && b.title.endsWith(g.group_id));
      assert.ok(row, b.title);
      const expected: Record<string, string> = {
        agent: num(row.agent_lines_survived),
        human: num(row.human_lines),
        outside: num(row.outside_lines),
      };
      if (!strict) expected.other = num((row as GroupUnitRow).other_session_lines);
      assert.deepEqual(b.counts, expected, `${id} ${b.title}`);
      // An ambiguous strict unit with counts is shown, and says why the strict figures leave it out.
      const ambiguity = strict ? (row as UnitRow).ambiguity : null;
      assert.equal(b.status, ambiguity === null ? null : `Counted, but left out of the strict figures (${ambiguity}).`);
      if (ambiguity !== null) flagged++;
      // Under the limit every committed line is shown once: the lines per owner are the counts.
      const shown: Record<string, string> = { agent: "0", human: "0", outside: "0", ...(strict ? {} : { other: "0" }) };
      for (const l of b.lines) shown[l.owner] = num(Number(shown[l.owner].replace(/,/g, "")) + 1);
      assert.deepEqual(shown, expected, `${id} ${b.title}: lines shown`);
      checked++;
    }
    for (const g of page.groups) {
      // This session, each other session, human, outside: they add up to the group row's total (metrics.md §1b invariant).
      const total = Object.values(g.owners).reduce((t, v) => t + Number(v.replace(/,/g, "")), 0);
      const row = groups.find(
        (r) =>
          r.session_id === id &&
          Object.values(g.owners).length > 0 &&
          r.agent_lines_survived !== null &&
          num(r.agent_lines_survived) === g.owners["this session"],
      );
      if (row && row.total_committed_lines !== null) assert.equal(total, row.total_committed_lines);
      for (const href of g.links) assert.ok(existsSync(join(out, "sessions", href)), href);
      groupsChecked++;
    }
  }
  assert.ok(checked >= 10, `blame blocks checked: ${checked}`);
  assert.ok(groupsChecked >= 10, `groups checked: ${groupsChecked}`);
  assert.ok(flagged >= 1, `ambiguous strict units with counts shown: ${flagged}`);

  // Hand-checked (sample case 1, s01-slugify, commit 09b9d5750e75 "Test slugify"): git's diff of package.json is one
  // hunk `@@ -6,7 +6,7 @@` with three lines of context before the changed line, so the added line is line 6 + 3 = 9;
  // test/slugify.test.ts is a new file of 19 lines, all added (1..19). The agent's Write (call #2) wrote its first 15
  // lines and an Edit (call #4) appended the last test (16..19); package.json's line is the Edit of call #6.
  const page = await readPage(join(out, "sessions", `${stems.get("10ae249a-fc0e-4fd2-98c7-1ef9578c5f4a")}.html`));
  const lines = page.blame.find((b) => b.title.startsWith("Strict unit"))!.lines;
  assert.deepEqual(
    lines.filter((l) => l.file === "package.json").map((l) => [l.n, l.call, l.text.trim()]),
    [["9", "call #6", '"test": "node --import tsx --test test/*.test.ts"']],
  );
  const test = lines.filter((l) => l.file === "test/slugify.test.ts");
  assert.deepEqual(
    test.map((l) => l.n),
    Array.from({ length: 19 }, (_, i) => String(i + 1)),
  );
  assert.deepEqual([...new Set(test.slice(0, 15).map((l) => l.call))], ["call #2"]);
  assert.deepEqual([...new Set(test.slice(15).map((l) => l.call))], ["call #4"]);
  assert.equal(test[0].text, 'import { test } from "node:test";');
  rmSync(out, { recursive: true, force: true });
});

test("a committed file carrying <script>, </script> and <img onerror> stays text in the blame view", {
  skip: SKIP,
  timeout: 60_000,
}, async () => {
  const repo = new TestRepo("sce-blame-hostile-");
  const file = "src/evil.ts";
  const content = `// ${PAYLOADS.script}\n// ${PAYLOADS.close}\n// ${PAYLOADS.img}\n// ${PAYLOADS.svg}\n`;
  const log = new ClaudeLog({ sessionId: "dddddddd-0000-0000-0000-000000000001", cwd: repo.dir })
    .prompt("Add the file.")
    .call("toolu_w", "Write", { file_path: join(repo.dir, file), content })
    .result("toolu_w", writeResult(join(repo.dir, file), content, null));
  repo.commit("base", { "README.md": "hello\n" });
  repo.commit("add the file", { [file]: content });
  const projects = mkdtempSync(join(tmpdir(), "sce-blame-projects-"));
  mkdirSync(join(projects, "-work-app"));
  writeFileSync(join(projects, "-work-app", "dddddddd-0000-0000-0000-000000000001.jsonl"), log.text());
  const out = mkdtempSync(join(tmpdir(), "sce-blame-out-"));
  const run = spawnSync(
    process.execPath,
    ["bin/swe-chat-eval.js", "report", projects, "--repo", repo.dir, "--out", out, "--quiet"],
    { encoding: "utf8" },
  );
  assert.equal(run.status, 0, run.stderr);
  const page = await readPage(join(out, "sessions", "dddddddd-0000-0000-0000-000000000001.html"));
  assert.deepEqual(page.errors, []);
  assert.equal(page.pwned, undefined, "a payload ran");
  assert.equal(page.injected, 0, "a payload added elements");
  assert.equal(page.scripts, 0);
  const strict = page.blame.find((b) => b.title.startsWith("Strict unit"))!;
  assert.deepEqual(strict.counts, { agent: "4", human: "0", outside: "0" });
  // The four lines arrive as the text they are, numbered 1..4, the agent's (call #0, the session's first call).
  assert.deepEqual(
    strict.lines.map((l) => [l.n, l.owner, l.text]),
    content
      .trimEnd()
      .split("\n")
      .map((t, i) => [String(i + 1), "agent", t]),
  );
  rmSync(out, { recursive: true, force: true });
  rmSync(projects, { recursive: true, force: true });
});
