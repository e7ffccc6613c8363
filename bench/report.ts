/**
 * Report bench: renders the HTML report (index.html, per-session pages,
 * SVG figures) for synthetic analysis rows and prints the time and the size
 * of index.html. Targets for 20,000 sessions: under 15 s and under 5 MB.
 *
 *   npm run bench:report
 *   tsx bench/report.ts [--sessions 20000] [--seed 1] [--png] [--out DIR]
 *
 * The rows are made up with a seeded generator (no transcripts are read):
 * 1–3 units per session (a fifth ambiguous), 12 models, 3 agents, 400
 * repositories, a year of start days, about 10 tool calls per session.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { codingMode } from "../src/attribution/rates";
import { lengthBin } from "../src/effort/length";
import type { Diagnostic, SessionRow, ToolCallRow, UnitRow } from "../src/model";
import { reportFiles } from "../src/report";
import { type AnalysisRows, seededRandom } from "../src/tables";

const MODELS = [
  "claude-opus-4-6",
  "claude-sonnet-4-5-20250929",
  "claude-haiku-4-5-20251001",
  "claude-sonnet-4-20250514",
  "claude-opus-4-1-20250805",
  "gpt-5-codex",
  "gpt-5",
  "gpt-5-mini",
  "gemini-2.5-pro",
  "gemini-2.5-flash",
  "o4-mini",
  "claude-3-7-sonnet-20250219",
];
const TOOLS: [string, string][] = [
  ["Read", "read"],
  ["Edit", "edit"],
  ["Write", "write"],
  ["Bash", "bash:build"],
  ["Bash", "bash:file"],
  ["Grep", "grep"],
  ["Glob", "glob"],
  ["Bash", "git/gh"],
  ["TodoWrite", "TodoWrite"],
  ["Task", "agent"],
];
const AMBIGUITY = ["multi-session-checkpoint", "multi-checkpoint-session", "merge-commit", "transcript-missing"];

/** Synthetic analysis rows for `n` sessions; the same seed gives the same rows. */
export function syntheticRows(n: number, seed = 1): AnalysisRows {
  const r = seededRandom(seed);
  const pick = <T>(list: readonly T[], skew = 1) =>
    list[Math.min(list.length - 1, Math.floor(list.length * r() ** skew))];
  const units: UnitRow[] = [];
  const sessions: SessionRow[] = [];
  const tool_calls: ToolCallRow[] = [];
  const diagnostics: Diagnostic[] = [];
  const t0 = Date.parse("2025-09-01T00:00:00Z");
  for (let i = 0; i < n; i++) {
    const id = `${((i * 2654435761) >>> 0).toString(16).padStart(8, "0")}-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const model = pick(MODELS, 2);
    const agent =
      model.startsWith("gpt") || model === "o4-mini"
        ? "Codex"
        : model.startsWith("gemini")
          ? "Gemini CLI"
          : "Claude Code";
    const repo = `org${Math.floor(40 * r() ** 2)}/repo${Math.floor(400 * r() ** 3)}`;
    const prompts = Math.floor(1 + 15 * r() ** 2);
    const start = t0 + Math.floor(365 * r()) * 86_400_000 + Math.floor(86_400_000 * r());
    const active = 60 + 3600 * r();
    const tokens = Math.floor(20_000 + 2_000_000 * r() ** 2);
    const calls = 3 + Math.floor(15 * r());
    sessions.push({
      session_id: id,
      source: agent === "Codex" ? "codex" : "claude-code",
      agent,
      model,
      models: model,
      repo,
      branch: "main",
      started_at: new Date(start).toISOString(),
      ended_at: new Date(start + active * 1500).toISOString(),
      duration_s: active * 1.5,
      active_s: active,
      prompts,
      length_bin: lengthBin(prompts),
      tool_calls: calls,
      edit_calls: Math.floor(calls / 3),
      failed_edit_calls: r() < 0.2 ? 1 : 0,
      input_tokens: Math.floor(tokens * 0.01),
      output_tokens: Math.floor(tokens * 0.04),
      cache_creation_tokens: Math.floor(tokens * 0.15),
      cache_read_tokens: Math.floor(tokens * 0.8),
      api_calls: 5 + Math.floor(80 * r()),
      cost_usd: model === "o4-mini" ? null : Math.round(tokens * 0.0000012 * 1e6) / 1e6,
    });
    for (let c = 0; c < calls; c++) {
      const [tool, category] = pick(TOOLS, 1.3);
      const edits = category === "edit" || category === "write";
      tool_calls.push({
        session_id: id,
        seq: c,
        tool,
        category,
        file: edits || tool === "Read" ? `src/module${Math.floor(50 * r())}.ts` : null,
        success: r() < 0.95,
        lines_added: edits ? Math.floor(40 * r()) : null,
        lines_removed: edits ? Math.floor(10 * r()) : null,
        timestamp: new Date(start + c * 30_000).toISOString(),
      });
    }
    for (let k = 0, m = 1 + Math.floor(3 * r() ** 2); k < m; k++) {
      const ambiguity = r() < 0.2 ? (pick(AMBIGUITY) as UnitRow["ambiguity"]) : null;
      const missing = ambiguity === "transcript-missing";
      const produced = Math.floor(200 * r() ** 2);
      const final = Math.floor(produced * (0.6 + 0.4 * r()));
      const survived = Math.floor(final * r() ** 0.5);
      const style = r();
      const human = style < 0.2 ? Math.floor(50 * r()) + 1 : style < 0.6 ? Math.floor(survived * 0.3 * r()) : 0;
      const committed = survived + human;
      const authored = committed > 0 ? (100 * survived) / committed : null;
      units.push({
        session_id: id,
        commit_sha: `${id.replace(/-/g, "").slice(0, 32)}${String(k).padStart(8, "0")}`,
        checkpoint_id: id.slice(0, 12),
        repo,
        agent,
        model,
        method: missing ? null : "git-replay",
        ambiguity,
        agent_lines_produced: missing ? null : produced,
        agent_lines_final: missing ? null : final,
        agent_lines_survived: missing ? null : survived,
        human_lines: missing ? null : human,
        outside_lines: missing ? null : 0,
        total_committed_lines: missing ? null : committed,
        numstat_additions: committed,
        code_survival_rate: missing || final === 0 ? null : (100 * survived) / final,
        coding_efficiency: missing || produced === 0 ? null : (100 * survived) / produced,
        agent_authored_pct: missing ? null : authored,
        coding_mode: missing ? null : codingMode(authored),
        unreplayable_calls: missing ? null : 0,
        outside_changes: missing ? null : 0,
        entire_agent_lines: null,
        entire_total_committed: null,
        entire_agent_percentage: null,
      });
      if (missing)
        diagnostics.push({
          source: "entire",
          session_id: id,
          file: null,
          record: null,
          severity: "warning",
          code: "transcript-missing",
          message: `checkpoint ${id.slice(0, 12)}: no transcript stored`,
        });
    }
  }
  return { units, sessions, tool_calls, diagnostics };
}

async function main() {
  const { values } = parseArgs({
    options: {
      sessions: { type: "string", default: "20000" },
      seed: { type: "string", default: "1" },
      png: { type: "boolean", default: false },
      out: { type: "string" },
    },
  });
  const n = Number(values.sessions);
  let t = performance.now();
  const rows = syntheticRows(n, Number(values.seed));
  const generated = (performance.now() - t) / 1000;
  const out = values.out ?? mkdtempSync(join(tmpdir(), "sce-bench-report-"));
  t = performance.now();
  const cpu = process.cpuUsage();
  // The report's own writer, unrolled so that time spent in file writes (20,000 small pages: at the mercy of the
  // file system and whatever else runs on the machine) is shown apart from rendering.
  let writing = 0;
  let files = 0;
  const folders = new Set<string>();
  for await (const file of reportFiles(rows, { png: values.png })) {
    const w = performance.now();
    const path = join(out, ...file.path.split("/"));
    if (!folders.has(dirname(path))) {
      mkdirSync(dirname(path), { recursive: true });
      folders.add(dirname(path));
    }
    writeFileSync(path, file.content);
    writing += performance.now() - w;
    files++;
  }
  const total = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuS = (used.user + used.system) / 1e6;
  const html = statSync(join(out, "index.html")).size;
  process.stdout.write(
    `sessions ${n}, units ${rows.units.length}, tool calls ${rows.tool_calls.length} (rows made in ${generated.toFixed(2)} s)\n` +
      `render ${(total - writing / 1000).toFixed(2)} s + file writes ${(writing / 1000).toFixed(2)} s = ${total.toFixed(2)} s (${files} files), CPU ${cpuS.toFixed(2)} s, load average ${loadavg()[0].toFixed(1)}\n` +
      `index.html ${(html / 1e6).toFixed(2)} MB\n` +
      `report-seconds ${total.toFixed(2)} (target < 15)\nreport-html-mb ${(html / 1e6).toFixed(2)} (target < 5)\n`,
  );
  if (!values.out) rmSync(out, { recursive: true, force: true });
  process.exitCode = total < 15 && html < 5e6 ? 0 : 1;
}

if (process.argv[1]?.endsWith("report.ts")) await main();
