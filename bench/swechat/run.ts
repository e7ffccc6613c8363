/**
 * Scale bench of the SWE-chat analysis (bench/swechat/README.md): generates
 * (or reuses) a synthetic dataset with the real schema, then times, each in
 * a fresh child process so that each peak RSS is its own:
 *   (1) a bare Parquet scan of the conversations columns the analysis reads
 *       (the floor), on the same number of threads;
 *   (2) the CLI as a user runs it: `swe-chat-eval analyze DIR --out OUT --threads N` (every pass, every table
 *       written), timed by bench/rusage.py as the other benches time it.
 * The last line is `swechat-scale sessions N seconds S peak-rss-mb M scan-ratio R`.
 *
 *   npm run bench:swechat                     # scale 1: the v2 release's size
 *   tsx bench/swechat/run.ts --scale 0.05     # quick
 *   tsx bench/swechat/run.ts --scale 1 --threads 2 [--seed 1] [--row-group 1048576] [--dir DIR]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { mapInWorkers } from "../../src/analyze/parallel";
import { findSwechatFiles } from "../../src/ingest/swechat";
import { DiagnosticSink } from "../../src/model";
import { measure, ROOT } from "../measure";
import { ensureDataset, V2 } from "./generate";
import type { ScanJob } from "./scan-job";

const SELF = fileURLToPath(import.meta.url);
const SCAN_JOB = fileURLToPath(new URL("./scan-job.ts", import.meta.url));
const TARGET = { seconds: 600, rssMb: 3072, ratio: 3 };

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};

interface PhaseResult {
  seconds: number;
  /** CPU time of the whole process (all threads): less sensitive than wall time to other work on the machine. */
  cpuSeconds: number;
  maxRssMb: number;
  rows: number;
  sessions: number;
  units: number;
  toolCalls: number;
  diagnostics: number;
  methods: Record<string, number>;
  threads: number;
}

/** (1) The floor: every row group of `conversations`, the columns the analysis reads, decoded and dropped. */
async function scan(dir: string, threads: number): Promise<PhaseResult> {
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const files = await findSwechatFiles(dir, new DiagnosticSink("bench"));
  if (!files) throw new Error(`${dir} is not a SWE-chat dataset`);
  const jobs: ScanJob[] = files.tables.conversations.flatMap((p) =>
    p.rowGroups.map((rg) => ({ file: p.file, rowStart: rg.start, rowEnd: rg.start + rg.rows })),
  );
  let rows = 0;
  await mapInWorkers<ScanJob, { rows: number }>(jobs, SCAN_JOB, {
    threads,
    maxInFlight: threads,
    onResult: (r) => void (rows += r.rows),
  });
  for (const parts of Object.values(files.tables)) for (const p of parts) await p.close();
  const cpu = process.cpuUsage(cpu0);
  return {
    ...EMPTY,
    rows,
    threads,
    seconds: Number(process.hrtime.bigint() - t0) / 1e9,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

const EMPTY: PhaseResult = {
  seconds: 0,
  cpuSeconds: 0,
  maxRssMb: 0,
  rows: 0,
  sessions: 0,
  units: 0,
  toolCalls: 0,
  diagnostics: 0,
  methods: {},
  threads: 0,
};

/** (2) `swe-chat-eval analyze` as a user starts it; its counts read back from the tables it wrote. */
async function analyzeWithCli(dir: string, threads: number): Promise<PhaseResult> {
  const out = mkdtempSync(join(tmpdir(), "bench-swechat-out-"));
  try {
    const run = await measure({
      id: "cli",
      label: "swe-chat-eval analyze",
      argv: [process.execPath, join(ROOT, "bin", "swe-chat-eval.js"), "analyze", dir].concat([
        "--out",
        out,
        "--quiet",
        "--threads",
        String(threads),
      ]),
    });
    if (run.code !== 0) throw new Error(`swe-chat-eval analyze exited ${run.code}`);
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as {
      tables: Record<string, { rows: number }>;
    };
    const methods: Record<string, number> = {};
    for (const u of JSON.parse(readFileSync(join(out, "units.json"), "utf8")) as { method: string | null }[])
      methods[u.method ?? "none"] = (methods[u.method ?? "none"] ?? 0) + 1;
    return {
      ...EMPTY,
      threads,
      seconds: run.seconds,
      cpuSeconds: run.cpu,
      maxRssMb: run.peakRssMb,
      sessions: manifest.tables.sessions.rows,
      units: manifest.tables.units.rows,
      toolCalls: manifest.tables.tool_calls.rows,
      diagnostics: manifest.tables.diagnostics.rows,
      methods,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The scan in a fresh process, so that its peak RSS is its own. */
function scanInChild(dir: string, threads: number): PhaseResult {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", SELF, "--phase", "scan", "--dir", dir, "--threads", String(threads)],
    { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = run.stdout.trim().split("\n").pop() ?? "";
  if (run.status !== 0 || !line.startsWith("{"))
    throw new Error(`the scan failed (exit ${run.status}): ${run.stdout.slice(-2000)}`);
  return JSON.parse(line) as PhaseResult;
}

async function main(): Promise<void> {
  const kind = arg("phase", "");
  const threads = Number(arg("threads", String(Math.min(availableParallelism(), 8))));
  if (kind === "scan") {
    process.stdout.write(JSON.stringify(await scan(arg("dir", ""), threads)) + "\n");
    return;
  }
  const scale = Number(arg("scale", "1"));
  const log = (l: string) => process.stdout.write(l + "\n");
  const genStart = Date.now();
  const { dir, manifest, reused } = ensureDataset({
    scale,
    seed: Number(arg("seed", "1")),
    rowGroup: Number(arg("row-group", "1048576")),
    out: process.argv.includes("--dir") ? resolve(arg("dir", "")) : undefined,
    log,
  });
  const mb = (n: number) => (n / 1048576).toFixed(0);
  log(
    `dataset ${dir} (${reused ? "reused" : `generated in ${((Date.now() - genStart) / 1000).toFixed(0)} s`}): ${manifest.sessions} sessions (v2: ${V2.sessions}), ${manifest.rows} conversation rows (v2: ${V2.rows}), ${manifest.toolCalls} tool calls (v2: ${V2.toolCalls}), ${manifest.prompts} prompts, ${manifest.checkpoints} checkpoints, ${manifest.commits} commits, ${manifest.transcripts} raw transcripts, ${manifest.repositories} repositories`,
  );
  log(
    `  Parquet sizes (MB): ${Object.entries(manifest.bytes)
      .map(([t, b]) => `${t} ${mb(b)}`)
      .join(", ")}; conversations row groups of ${manifest.rowGroup} rows`,
  );
  log(`threads ${threads} (machine: ${availableParallelism()} cores)`);

  const floor = scanInChild(dir, threads);
  log(
    `(1) bare scan of the conversation columns: ${floor.seconds.toFixed(1)} s (CPU ${floor.cpuSeconds.toFixed(1)} s), ${(floor.rows / floor.seconds).toFixed(0)} rows/s, peak RSS ${floor.maxRssMb.toFixed(0)} MB`,
  );
  const full = await analyzeWithCli(dir, threads);
  log(
    `(2) swe-chat-eval analyze DIR --out OUT --threads ${threads}: ${full.seconds.toFixed(1)} s (CPU ${full.cpuSeconds.toFixed(1)} s), ${(full.sessions / full.seconds).toFixed(1)} sessions/s, ${(manifest.rows / full.seconds).toFixed(0)} rows/s, peak RSS ${full.maxRssMb.toFixed(0)} MB`,
  );
  log(
    `    ${full.sessions} sessions, ${full.units} units (${Object.entries(full.methods)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}), ${full.toolCalls} tool calls, ${full.diagnostics} diagnostics`,
  );
  const ratio = full.seconds / floor.seconds;
  log(
    `    load average at the end ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}; CPU-time ratio ${(full.cpuSeconds / floor.cpuSeconds).toFixed(2)}`,
  );
  const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");
  log(
    `targets at full scale: time ${full.seconds.toFixed(0)} s < ${TARGET.seconds} s ${verdict(full.seconds < TARGET.seconds)}; peak RSS ${full.maxRssMb.toFixed(0)} MB < ${TARGET.rssMb} MB ${verdict(full.maxRssMb < TARGET.rssMb)}; ratio ${ratio.toFixed(2)} ≤ ${TARGET.ratio} ${verdict(ratio <= TARGET.ratio)}`,
  );
  log(
    `swechat-scale sessions ${full.sessions} seconds ${full.seconds.toFixed(1)} peak-rss-mb ${full.maxRssMb.toFixed(0)} scan-ratio ${ratio.toFixed(2)}`,
  );
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
