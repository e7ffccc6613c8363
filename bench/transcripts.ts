/**
 * `npm run bench` (bench/README.md): the CLI as a user runs it on a generated
 * Claude Code corpus with the repository its sessions edited
 * (bench/transcripts-corpus.ts), beside the floor (bare read + JSON.parse of
 * every line, bench/floor.mjs) and ccusage, all as child processes on the
 * same files, each run `--runs` times, interleaved; medians.
 *
 *   tsx bench/transcripts.ts [--mb 500] [--runs 3] [--seed 1] [--dir DIR] [--profile DIR] [--keep]
 *
 * Last lines: `cli-vs-floor X` (CLI 1 thread / floor 1 thread), `cli-2-thread-speedup Y`
 * (CLI 1 thread / CLI 2 threads), `cli-vs-ccusage Z` (CLI 2 threads / ccusage), wall-time medians.
 * Exit 1 when a check fails (most sessions form no attributable unit, the two CLI runs differ, a token
 * difference is unexplained).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  ccusageCli,
  ccusageVersion,
  type Command,
  type Measured,
  measure,
  measureAll,
  profileSummary,
  ROOT,
  table,
  wall,
  warmPageCache,
} from "./measure";
import { ensureCorpus, type CorpusManifest } from "./transcripts-corpus";

const arg = (name: string, fallback?: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const log = (line = "") => console.log(line);
const TOKENS = ["input_tokens", "output_tokens", "cache_creation_tokens", "cache_read_tokens"] as const;
type Tokens = Record<(typeof TOKENS)[number], number>;
type Row = Record<string, any>;

const cli = (folder: string, repo: string, out: string, threads: number, extra: string[] = []): string[] => [
  process.execPath,
  ...extra,
  join(ROOT, "bin", "swe-chat-eval.js"),
  "analyze",
  folder,
  "--repo",
  repo,
  "--out",
  out,
  "--quiet",
  "--threads",
  String(threads),
];

async function main(): Promise<number> {
  const mb = Number(arg("mb", "500"));
  const runs = Number(arg("runs", "3"));
  const load0 = loadavg();
  const { dir, manifest, reused } = await ensureCorpus({ mb, seed: Number(arg("seed", "1")), out: arg("dir"), log });
  const MB = manifest.bytes / 1048576;
  const quarterMB = manifest.quarter_bytes / 1048576;
  log(`corpus: ${dir} (${reused ? "reused" : `built in ${manifest.seconds.toFixed(1)} s`})`);
  log(
    `  ${manifest.sessions.length} Claude Code sessions, ${MB.toFixed(1)} MB in ${manifest.projects}; repository ${manifest.repo}, ${manifest.commits} commits`,
  );
  log(`  quarter: ${manifest.quarter_sessions} sessions, ${quarterMB.toFixed(1)} MB in ${manifest.quarter}`);
  const ccusage = ccusageCli();
  if (ccusage === null) throw new Error("ccusage is not installed: run npm install (it is a pinned devDependency)");
  log(
    `  ccusage ${ccusageVersion(ccusage)}, node ${process.version}, ${availableParallelism()} CPUs, load average before ${load0.map((x) => x.toFixed(2)).join(" ")}`,
  );
  warmPageCache([manifest.projects, join(manifest.repo, ".git")]);

  const tmp = mkdtempSync(join(tmpdir(), "bench-transcripts-"));
  const out = (name: string) => join(tmp, name);
  const floor = (threads: number, folder: string) => [
    process.execPath,
    join(ROOT, "bench", "floor.mjs"),
    "--threads",
    String(threads),
    folder,
  ];
  const commands: Command[] = [
    {
      id: "floor-1",
      label: "floor: read + JSON.parse per line, 1 thread",
      argv: floor(1, manifest.projects),
      stdout: true,
    },
    {
      id: "floor-2",
      label: "floor: read + JSON.parse per line, 2 threads",
      argv: floor(2, manifest.projects),
      stdout: true,
    },
    {
      id: "cli-1",
      label: "swe-chat-eval analyze --threads 1",
      argv: cli(manifest.projects, manifest.repo, out("cli-1"), 1),
    },
    {
      id: "cli-2",
      label: "swe-chat-eval analyze --threads 2",
      argv: cli(manifest.projects, manifest.repo, out("cli-2"), 2),
    },
    {
      id: "ccusage",
      label: "ccusage session --json --offline",
      argv: [process.execPath, ccusage, "session", "--json", "--offline"],
      env: { CLAUDE_CONFIG_DIR: dir },
      stdout: true,
    },
    {
      id: "cli-1-q",
      label: "swe-chat-eval analyze --threads 1, 1/4 corpus",
      argv: cli(manifest.quarter, manifest.repo, out("cli-1-q"), 1),
    },
    {
      id: "cli-2-q",
      label: "swe-chat-eval analyze --threads 2, 1/4 corpus",
      argv: cli(manifest.quarter, manifest.repo, out("cli-2-q"), 2),
    },
  ];
  log(
    `\n$ ${commands
      .find((c) => c.id === "cli-2")!
      .argv.slice(1)
      .join(" ")}`,
  );
  log(`$ CLAUDE_CONFIG_DIR=${dir} node ${ccusage} session --json --offline`);
  log(`${runs} run(s) of each, interleaved:`);
  const m = await measureAll(commands, runs, log);
  const get = (id: string) => m.get(id)!;

  log("");
  const sized = (id: string) => ({
    m: get(id),
    mb: id.endsWith("-q") ? quarterMB : MB,
    sessions: id.endsWith("-q") ? manifest.quarter_sessions : manifest.sessions.length,
  });
  for (const line of table(commands.map((c) => sized(c.id)))) log(line);
  log(
    `load average after ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );

  let failed = false;
  const floorCount = JSON.parse(get("floor-1").runs[0].stdout) as { files: number; records: number };
  log(`\nfloor: ${floorCount.files} files, ${floorCount.records} records`);
  const same = tableHash(out("cli-1")) === tableHash(out("cli-2"));
  log(
    `CLI tables identical on 1 and 2 threads (units, sessions, tool_calls, unit_files, group_units; sha1): ${same ? "yes" : "NO"}`,
  );
  failed ||= !same;
  failed ||= !unitCheck(out("cli-2"), manifest);
  failed ||= !tokenCheck(out("cli-2"), get("ccusage"), manifest, dir);
  const rss = (id: string) => Math.max(...get(id).runs.map((r) => r.peakRssMb));
  log(
    `\npeak RSS of the CLI, 1/4 → all of the corpus (×${(MB / quarterMB).toFixed(1)} the bytes): 1 thread ${rss("cli-1-q").toFixed(0)} → ${rss("cli-1").toFixed(0)} MB (×${(rss("cli-1") / rss("cli-1-q")).toFixed(2)}), 2 threads ${rss("cli-2-q").toFixed(0)} → ${rss("cli-2").toFixed(0)} MB (×${(rss("cli-2") / rss("cli-2-q")).toFixed(2)})`,
  );
  log(
    `floor 2-thread speed-up (this machine's ceiling for this work): ${(wall(get("floor-1")) / wall(get("floor-2"))).toFixed(2)}`,
  );

  const profile = arg("profile");
  if (profile) await profiled(profile, manifest, out("profile"));

  if (process.argv.includes("--keep")) log(`\noutputs kept in ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
  log("");
  log(`cli-vs-floor ${(wall(get("cli-1")) / wall(get("floor-1"))).toFixed(2)}`);
  log(`cli-2-thread-speedup ${(wall(get("cli-1")) / wall(get("cli-2"))).toFixed(2)}`);
  log(`cli-vs-ccusage ${(wall(get("cli-2")) / wall(get("ccusage"))).toFixed(2)}`);
  return failed ? 1 : 0;
}

const readRows = (dir: string, table: string): Row[] =>
  existsSync(join(dir, `${table}.json`)) ? (JSON.parse(readFileSync(join(dir, `${table}.json`), "utf8")) as Row[]) : [];

function tableHash(dir: string): string {
  const h = createHash("sha1");
  for (const t of ["units", "sessions", "tool_calls", "unit_files", "group_units"])
    h.update(existsSync(join(dir, `${t}.json`)) ? readFileSync(join(dir, `${t}.json`)) : `(no ${t})`);
  return h.digest("hex").slice(0, 12);
}

/** Most sessions must form an attributable unit: unambiguous, with counts. */
function unitCheck(dir: string, manifest: CorpusManifest): boolean {
  const units = readRows(dir, "units");
  const attributable = units.filter((u) => u.ambiguity === null && u.agent_lines_survived !== null);
  const sessions = new Set(attributable.map((u) => u.session_id));
  const committed = manifest.sessions.filter((s) => s.commit !== null).length;
  const byReason = new Map<string, number>();
  for (const u of units)
    byReason.set(u.ambiguity ?? "(unambiguous)", (byReason.get(u.ambiguity ?? "(unambiguous)") ?? 0) + 1);
  const sum = (c: string) => attributable.reduce((n, u) => n + (u[c] ?? 0), 0);
  log(
    `\nunits: ${units.length} (${[...byReason].map(([k, n]) => `${k} ${n}`).join(", ")}), group units ${readRows(dir, "group_units").length}`,
  );
  log(
    `sessions forming an attributable unit: ${sessions.size} of ${manifest.sessions.length} (${committed} have a commit in the repository; the others' work was all thrown away)`,
  );
  log(
    `  their lines: produced ${sum("agent_lines_produced")}, survived ${sum("agent_lines_survived")}, human ${sum("human_lines")}, committed ${sum("total_committed_lines")}`,
  );
  const ok = sessions.size * 2 > manifest.sessions.length;
  if (!ok) log("  FAILED: most sessions form no attributable unit");
  return ok;
}

const zero = (): Tokens => ({ input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0 });
const fmtTokens = (t: Tokens) => TOKENS.map((k) => String(t[k]).padStart(12)).join(" ");

/**
 * Token totals of the CLI's sessions table against ccusage's. Each session whose tokens differ must be
 * explained: `claude-sidechain-prompt` (the CLI read sub-agent records) and a difference equal to the
 * usage of the sub-agent messages mirrored in its `agent_progress` records (read here, by message id).
 */
function tokenCheck(dir: string, run: Measured, manifest: CorpusManifest, corpus: string): boolean {
  const sessions = readRows(dir, "sessions");
  const diagnostics = readRows(dir, "diagnostics");
  const cc = JSON.parse(run.runs[0].stdout) as {
    session: {
      period: string;
      inputTokens: number;
      outputTokens: number;
      cacheCreationTokens: number;
      cacheReadTokens: number;
    }[];
  };
  const ccTokens = new Map<string, Tokens>(
    cc.session.map((s) => [
      s.period,
      {
        input_tokens: s.inputTokens,
        output_tokens: s.outputTokens,
        cache_creation_tokens: s.cacheCreationTokens,
        cache_read_tokens: s.cacheReadTokens,
      },
    ]),
  );
  const cliTotal = zero();
  const ccTotal = zero();
  for (const t of ccTokens.values()) for (const k of TOKENS) ccTotal[k] += t[k];
  const sidechain = new Set(diagnostics.filter((d) => d.code === "claude-sidechain-prompt").map((d) => d.session_id));
  const fileOf = new Map(manifest.sessions.map((s) => [s.id, join(corpus, s.file)]));
  let differ = 0;
  let explained = 0;
  const unexplained: string[] = [];
  for (const s of sessions) {
    for (const k of TOKENS) cliTotal[k] += s[k];
    const c = ccTokens.get(s.session_id);
    ccTokens.delete(s.session_id);
    if (c === undefined) {
      unexplained.push(`${s.session_id}: not in ccusage's output`);
      continue;
    }
    if (TOKENS.every((k) => c[k] === s[k])) continue;
    differ++;
    const sub = fileOf.has(s.session_id) ? subAgentUsage(fileOf.get(s.session_id)!) : null;
    if (sidechain.has(s.session_id) && sub !== null && TOKENS.every((k) => s[k] - c[k] === sub[k])) explained++;
    else unexplained.push(`${s.session_id}: CLI ${fmtTokens(s as Tokens)}, ccusage ${fmtTokens(c)}`);
  }
  for (const id of ccTokens.keys()) unexplained.push(`${id}: in ccusage's output, not in the sessions table`);
  const diff = zero();
  for (const k of TOKENS) diff[k] = cliTotal[k] - ccTotal[k];
  log(`\ntokens                         ${TOKENS.map((k) => k.replace("_tokens", "").padStart(12)).join(" ")}`);
  log(`  CLI (sessions table, summed)  ${fmtTokens(cliTotal)}`);
  log(`  ccusage (session --json)      ${fmtTokens(ccTotal)}`);
  log(`  CLI − ccusage                 ${fmtTokens(diff)}`);
  log(
    `sessions: CLI ${sessions.length}, ccusage ${cc.session.length}; tokens differ in ${differ}: explained ${explained} (claude-sidechain-prompt: sub-agent API calls mirrored in agent_progress records, which the CLI counts and ccusage does not), unexplained ${unexplained.length}`,
  );
  for (const u of unexplained.slice(0, 10)) log(`    ${u}`);
  return unexplained.length === 0;
}

/** Usage of the sub-agent assistant messages a transcript mirrors in `agent_progress` records, the last record of each message id. */
function subAgentUsage(file: string): Tokens {
  const byId = new Map<string, Row>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.includes('"agent_progress"')) continue;
    const r = JSON.parse(line) as Row;
    const m = r.data?.message;
    if (r.type === "progress" && r.data?.type === "agent_progress" && m?.type === "assistant" && m.message?.usage)
      byId.set(m.message.id, m.message.usage);
  }
  const t = zero();
  for (const u of byId.values()) {
    t.input_tokens += u.input_tokens ?? 0;
    t.output_tokens += u.output_tokens ?? 0;
    t.cache_creation_tokens += u.cache_creation_input_tokens ?? 0;
    t.cache_read_tokens += u.cache_read_input_tokens ?? 0;
  }
  return t;
}

/** One untimed CLI run, 1 thread, under `--cpu-prof`: where the time goes. */
async function profiled(dir: string, manifest: CorpusManifest, out: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  const argv = cli(manifest.projects, manifest.repo, out, 1, ["--cpu-prof", "--cpu-prof-dir", dir]);
  const run = await measure({ id: "profile", label: "profile", argv });
  log(`\nCPU profile of one CLI run, 1 thread (${run.seconds.toFixed(2)} s wall under the profiler; ${dir}):`);
  for (const line of profileSummary(dir)) log(line);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
