/**
 * Throughput bench: bare parse vs ingest vs ingest + replay + attribution on
 * a synthetic corpus of Claude Code 2.x transcripts (bench/README.md).
 *
 *   npm run bench                       # 500 MB corpus (generated once, reused)
 *   npm run bench:quick                 # 20 MB
 *   tsx bench/attribution.ts --mb 20 --threads 2 [--dir DIR] [--seed 1] [--profile DIR]
 *
 * Every phase runs in a fresh child process on the same files (page cache
 * warmed first), so each phase's peak RSS is its own (`resourceUsage().maxRSS`,
 * which covers worker threads too: they share the process). The last line is
 * `attribution-throughput-ratio X`: MB/s of ingest + attribution on one core
 * over MB/s of the bare read + JSON.parse, also on one core.
 */
import { fork, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TextDecoder } from "node:util";
import { mapInWorkers } from "../src/analyze/parallel";
import type { TranscriptJob, TranscriptJobRow } from "../src/analyze/transcript-job";
import { ensureCorpus, type CorpusManifest } from "./generate-corpus";

const SELF = fileURLToPath(import.meta.url);
const JOB_MODULE = fileURLToPath(new URL("../src/analyze/transcript-job.ts", import.meta.url));

type PhaseKind = "bare" | "ingest" | "attribution";

interface PhaseSpec {
  id: string;
  label: string;
  kind: PhaseKind;
  threads: number;
  /** The first `count` sessions of the manifest. */
  count: number;
  /** Passes over the sessions in the one process; only the last is measured (2: the code is already compiled and optimized). Default 1. */
  passes?: number;
}

interface PhaseResult {
  id: string;
  sessions: number;
  bytes: number;
  records: number;
  /** From the moment every worker has loaded the code (the pool's `onReady`) to the last result. */
  seconds: number;
  /** Before the first job was pulled: loading the job module, starting workers (CPU time also counts from that point). */
  startupSeconds: number;
  cpuSeconds: number;
  /** Peak RSS of the phase's process (kernel high-water mark), MB. */
  maxRssMb: number;
  /** RSS before the phase started (after loading code), MB. */
  baseRssMb: number;
  /** Peak RSS so far (kernel high-water mark) after 25, 50, 75 and 100 % of the bytes, MB. */
  rssCurve: number[];
  digest: string;
  failures: number;
  totals: Record<string, number>;
}

const MB = 1024 * 1024;

function arg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

// ---- child: one phase -------------------------------------------------------

/** Bare floor: read the file as bytes, decode each line, JSON.parse it. */
function bareParse(path: string, decoder: TextDecoder): number {
  const bytes = readFileSync(path);
  let records = 0;
  let pos = 0;
  const n = bytes.length;
  while (pos < n) {
    let end = bytes.indexOf(10, pos);
    if (end === -1) end = n;
    if (end > pos) {
      JSON.parse(decoder.decode(bytes.subarray(pos, end)));
      records++;
    }
    pos = end + 1;
  }
  return records;
}

const SUMMED: (keyof TranscriptJobRow)[] = [
  "records",
  "turns",
  "tool_calls",
  "edit_calls",
  "failed_calls",
  "api_calls",
  "output_tokens",
  "agent_lines_produced",
  "agent_lines_final",
  "agent_lines_survived",
  "human_lines",
  "outside_lines",
  "total_committed_lines",
  "unreplayable_calls",
  "outside_changes",
  "unknown_base_files",
  "diagnostics",
  "errors",
];

async function runPhase(dir: string, kind: PhaseKind, threads: number, count: number, passes = 1): Promise<Omit<PhaseResult, "id">> {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as CorpusManifest;
  const sessions = manifest.sessions.slice(0, count);
  const hash = createHash("sha1");
  const totals: Record<string, number> = {};
  let bytes = 0;
  let records = 0;
  let failures = 0;
  const totalBytes = sessions.reduce((n, x) => n + x.bytes, 0);
  const rssCurve: number[] = [];
  const sample = () => {
    while (rssCurve.length < 4 && bytes >= (totalBytes * (rssCurve.length + 1)) / 4) rssCurve.push(process.resourceUsage().maxRSS / 1024);
  };
  const baseRssMb = process.memoryUsage.rss() / MB;
  let cpu0 = process.cpuUsage();
  const tStart = performance.now();
  let t0 = tStart;
  // The clock stops at the last result: a worker pool then still stops its threads (about 25 ms
  // for two), which is not throughput and which the one-core phases do not pay.
  let tEnd = 0;
  if (kind === "bare") {
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    for (const s of sessions) {
      records += bareParse(join(dir, s.transcript), decoder);
      bytes += s.bytes;
      sample();
    }
    hash.update(String(records));
    tEnd = performance.now();
  } else {
    // The clock starts when every worker has loaded the code (the pool hands the first jobs to the
    // first worker up, so without the wait the second worker's start-up would fall in the window).
    let allReady = (): void => {};
    const jobs = async function* (): AsyncGenerator<TranscriptJob> {
      await ready;
      t0 = performance.now();
      cpu0 = process.cpuUsage();
      for (const s of sessions) yield { transcriptPath: join(dir, s.transcript), commitPath: kind === "attribution" ? join(dir, s.commit) : null };
    };
    let ready = Promise.resolve();
    const nextPass = () => (ready = new Promise<void>((resolveReady) => (allReady = resolveReady)));
    const onReady = () => allReady();
    // Earlier passes only warm the code (JIT); their rows are not counted.
    for (let pass = 1; pass < passes; pass++) {
      nextPass();
      await mapInWorkers<TranscriptJob, TranscriptJobRow>(jobs(), JOB_MODULE, { threads, onReady, onResult: () => {} });
    }
    nextPass();
    await mapInWorkers<TranscriptJob, TranscriptJobRow>(jobs(), JOB_MODULE, {
      threads,
      onReady,
      onResult: (row) => {
        bytes += row.bytes;
        sample();
        if (row.failure !== null) failures++;
        for (const k of SUMMED) totals[k] = (totals[k] ?? 0) + (row[k] as number);
        hash.update(JSON.stringify(row));
        hash.update("\n");
        tEnd = performance.now();
      },
    });
    records = totals.records ?? 0;
  }
  const seconds = (Math.max(tEnd, t0) - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    sessions: sessions.length,
    bytes,
    records,
    seconds,
    startupSeconds: t0 - tStart > 0 ? (t0 - tStart) / 1000 : 0,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    baseRssMb,
    rssCurve,
    digest: hash.digest("hex").slice(0, 12),
    failures,
    totals,
  };
}

// ---- parent -----------------------------------------------------------------

/** CPUs to pin a phase to (`taskset -c`), or null to leave scheduling alone. */
function cpuList(threads: number, pin: boolean): string | null {
  if (!pin) return null;
  const n = Math.max(1, threads);
  if (n > availableParallelism()) return null;
  return n === 1 ? "0" : `0-${n - 1}`;
}

function forkPhase(dir: string, spec: PhaseSpec, opts: { profileDir?: string; pin: boolean }): Promise<PhaseResult> {
  return new Promise((resolvePhase, reject) => {
    const execArgv = [...process.execArgv];
    if (opts.profileDir) execArgv.push("--cpu-prof", `--cpu-prof-dir=${join(opts.profileDir, spec.id)}`, "--cpu-prof-interval", "500");
    const args = ["--phase", spec.kind, "--dir", dir, "--threads", String(spec.threads), "--count", String(spec.count), "--passes", String(spec.passes ?? 1)];
    const cpus = cpuList(spec.threads, opts.pin);
    // Pinned: `taskset -c CPUS node …` with an IPC channel (fork's own spawn cannot prefix a command).
    const child = cpus !== null
      ? spawn("taskset", ["-c", cpus, process.execPath, ...execArgv, SELF, ...args], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
      : fork(SELF, args, { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let result: PhaseResult | null = null;
    child.on("message", (m) => {
      result = { id: spec.id, ...(m as Omit<PhaseResult, "id">) };
    });
    child.on("error", reject);
    child.on("exit", (code) => (result !== null ? resolvePhase(result) : reject(new Error(`phase ${spec.id} exited with code ${code} and no result`))));
  });
}

const fmt = (x: number, d = 1) => x.toFixed(d);
const pad = (s: string, n: number) => (s.length >= n ? s : " ".repeat(n - s.length) + s);

/** Self time by function and by file of one V8 CPU profile (profiling the parser). */
function summarizeProfile(file: string, top = 25): string[] {
  const p = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
  };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const counts = new Map<number, number>();
  for (const s of p.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const fn = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const [id, c] of counts) {
    const n = byId.get(id)!;
    const url = n.callFrame.url.replace(/^file:\/\//, "").replace(/^.*\/(src|node_modules)\//, "$1/");
    const name = `${n.callFrame.functionName || "(anonymous)"} ${url ? `${url}:${n.callFrame.lineNumber + 1}` : ""}`.trim();
    if (name === "(idle)") continue;
    total += c;
    fn.set(name, (fn.get(name) ?? 0) + c);
    const f = url === "" ? name : url.startsWith("node:") || !url.includes("/") ? "(node internals)" : url.replace(/^(node_modules\/[^/]+)\/.*$/, "$1");
    byFile.set(f, (byFile.get(f) ?? 0) + c);
  }
  const pct = (c: number) => pad(fmt((100 * c) / total), 5) + " %";
  const out = ["  self time by file:"];
  for (const [k, c] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 12)) out.push(`    ${pct(c)}  ${k}`);
  out.push("  self time by function (JSON.parse and TextDecoder count in their callers' self time):");
  for (const [k, c] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top)) out.push(`    ${pct(c)}  ${k}`);
  return out;
}

async function main(): Promise<void> {
  const mb = Number(arg("mb", "500"));
  const threads = Number(arg("threads", "2"));
  const seed = Number(arg("seed", "1"));
  const profileDir = arg("profile");
  const repeat = Math.max(1, Number(arg("repeat", "3")));
  const log = (s: string) => console.log(s);

  log(`corpus: ${mb} MB requested`);
  const g0 = performance.now();
  const { dir, manifest, reused } = ensureCorpus({ mb, out: arg("dir"), seed, log });
  const mix = manifest.mix;
  const mixTotal = Object.values(mix).reduce((a, b) => a + b, 0);
  log(`corpus: ${dir} — ${manifest.sessions.length} sessions, ${fmt(manifest.bytes / MB)} MB (${reused ? "reused" : `generated in ${fmt((performance.now() - g0) / 1000)} s`})`);
  const share = (pred: (k: string) => boolean) => (100 * Object.entries(mix).filter(([k]) => pred(k)).reduce((s, [, v]) => s + v, 0)) / mixTotal;
  log(
    `byte mix: tool results ${fmt(share((k) => k.startsWith("user/tool_result")), 0)} % (Read ${fmt(share((k) => k === "user/tool_result/Read"), 0)} %, ` +
      `Edit/Write/MultiEdit ${fmt(share((k) => /tool_result\/(Edit|Write|MultiEdit)$/.test(k)), 0)} %), assistant ${fmt(share((k) => k.startsWith("assistant")), 0)} %, ` +
      `progress ${fmt(share((k) => k.startsWith("progress")), 0)} % (agent_progress ${fmt(share((k) => k === "progress/agent_progress"), 0)} %), ` +
      `snapshots ${fmt(share((k) => k === "file-history-snapshot"), 1)} %, other ${fmt(share((k) => !/^(user\/tool_result|assistant|progress|file-history)/.test(k)), 0)} %`,
  );

  // Warm the page cache so that no phase pays for the disk.
  const w0 = performance.now();
  let warm = 0;
  for (const s of manifest.sessions) {
    warm += readFileSync(join(dir, s.transcript)).length;
    warm += readFileSync(join(dir, s.commit)).length;
  }
  log(`page cache warmed: ${fmt(warm / MB)} MB read in ${fmt((performance.now() - w0) / 1000, 2)} s`);

  const all = manifest.sessions.length;
  const quarter = Math.max(1, Math.round(all / 4));
  const specs: PhaseSpec[] = [
    { id: "1-bare", label: "(1) bare read + JSON.parse per line", kind: "bare", threads: 1, count: all },
    { id: "2-ingest", label: "(2) ingest (parse to Session)", kind: "ingest", threads: 1, count: all },
    { id: "3-attribution", label: "(3) ingest + replay + attribution", kind: "attribution", threads: 1, count: all },
    { id: `4-attribution-${threads}w`, label: `(4) same as (3) on ${threads} worker threads`, kind: "attribution", threads, count: all },
    { id: "5-attribution-quarter", label: "(5) same as (3) on 1/4 of the corpus", kind: "attribution", threads: 1, count: quarter },
    { id: `6-attribution-${threads}w-quarter`, label: `(6) same as (4) on 1/4 of the corpus`, kind: "attribution", threads, count: quarter },
    { id: "7-attribution-warm", label: "(7) same as (3), second pass (code warm)", kind: "attribution", threads: 1, count: all, passes: 2 },
  ];
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const pin = !process.argv.includes("--no-pin") && spawnSync("taskset", ["-c", "0", "true"]).status === 0;
  log(
    `machine: ${availableParallelism()} CPUs; ${pin ? "one-core phases pinned to CPU 0, worker phases to CPUs 0–" + (threads - 1) + " (taskset)" : "no CPU pinning"}; ` +
      `each phase in a fresh process; best of ${repeat} run(s) per phase, interleaved`,
  );
  const results = new Map<string, PhaseResult>();
  const peaks = new Map<string, number>();
  for (let rep = 1; rep <= repeat; rep++) {
    for (const spec of specs) {
      process.stdout.write(`run ${rep}/${repeat}: ${spec.label} …`);
      const r = await forkPhase(dir, spec, { profileDir: rep === 1 ? profileDir : undefined, pin });
      const best = results.get(spec.id);
      if (best === undefined || r.seconds < best.seconds) results.set(spec.id, r);
      // Memory: the highest peak of all runs of the phase.
      peaks.set(spec.id, Math.max(peaks.get(spec.id) ?? 0, r.maxRssMb));
      process.stdout.write(` ${fmt(r.bytes / MB / r.seconds)} MB/s (${fmt(r.seconds, 2)} s + ${fmt(r.startupSeconds, 2)} s start-up), peak RSS ${fmt(r.maxRssMb, 0)} MB\n`);
    }
  }
  for (const [id, peak] of peaks) results.get(id)!.maxRssMb = peak;

  const get = (id: string) => results.get(id)!;
  const mbps = (r: PhaseResult) => r.bytes / MB / r.seconds;
  log("");
  log(`${"phase".padEnd(46)} ${pad("threads", 7)} ${pad("sessions", 8)} ${pad("MB", 7)} ${pad("start s", 7)} ${pad("seconds", 8)} ${pad("MB/s", 7)} ${pad("sessions/s", 10)} ${pad("CPU s", 6)} ${pad("MB/CPU-s", 8)} ${pad("peak RSS MB", 11)}`);
  for (const spec of specs) {
    const r = get(spec.id);
    log(
      `${spec.label.padEnd(46)} ${pad(spec.threads <= 1 ? "1" : String(spec.threads), 7)} ${pad(String(r.sessions), 8)} ${pad(fmt(r.bytes / MB), 7)} ${pad(fmt(r.startupSeconds, 2), 7)} ${pad(fmt(r.seconds, 2), 8)} ${pad(fmt(mbps(r)), 7)} ${pad(fmt(r.sessions / r.seconds, 0), 10)} ${pad(fmt(r.cpuSeconds, 1), 6)} ${pad(fmt(r.bytes / MB / r.cpuSeconds), 8)} ${pad(fmt(r.maxRssMb, 0), 11)}`,
    );
  }
  const bare = get("1-bare");
  const ingest = get("2-ingest");
  const attr = get("3-attribution");
  const attrW = get(`4-attribution-${threads}w`);
  const attrQ = get("5-attribution-quarter");
  const attrWQ = get(`6-attribution-${threads}w-quarter`);
  const ratio = mbps(attr) / mbps(bare);
  const speedup = mbps(attrW) / mbps(attr);
  log("");
  log(`ingest / bare parse (one core):                 ${fmt(mbps(ingest) / mbps(bare), 2)}`);
  log(`ingest + attribution / bare parse (one core):   ${fmt(ratio, 2)}   (target ≥ 0.50: ${ratio >= 0.5 ? "met" : "NOT met"})`);
  const perCpu = (r: PhaseResult) => r.bytes / MB / r.cpuSeconds;
  log(`the same by CPU time (robust to other load on the machine): ingest ${fmt(perCpu(ingest) / perCpu(bare), 2)}, ingest + attribution ${fmt(perCpu(attr) / perCpu(bare), 2)}`);
  log(`${threads} worker threads / one core (ingest + attribution): ${fmt(speedup, 2)}×   (target ≥ 1.70×: ${speedup >= 1.7 ? "met" : "NOT met"})`);
  const warmRun = get("7-attribution-warm");
  log(
    `with the code already compiled (second pass in one process): ingest + attribution / bare parse ${fmt(mbps(warmRun) / mbps(bare), 2)}; ` +
      `the cold run's extra CPU (V8 compiling and optimizing the code as it runs): ${fmt(attr.cpuSeconds - warmRun.cpuSeconds, 2)} CPU-s, paid once per process and per worker thread`,
  );
  const curve = (r: PhaseResult) => r.rssCurve.map((x) => fmt(x, 0)).join(" / ");
  log(
    `peak RSS, 1/4 → all of the corpus (×${fmt(attr.bytes / attrQ.bytes, 1)} the bytes): one core ${fmt(attrQ.maxRssMb, 0)} → ${fmt(attr.maxRssMb, 0)} MB, ` +
      `${threads} workers ${fmt(attrWQ.maxRssMb, 0)} → ${fmt(attrW.maxRssMb, 0)} MB; largest session ${fmt(Math.max(...manifest.sessions.map((s) => s.bytes)) / MB, 2)} MB`,
  );
  log(`peak RSS so far at 25 / 50 / 75 / 100 % of the corpus: (3) ${curve(attr)} MB; (4) ${curve(attrW)} MB; (1) ${curve(bare)} MB`);
  // Flat: the last half of the corpus adds little to the peak (V8 grows its heap lazily to a plateau; see README).
  const lastHalf = (r: PhaseResult) => (r.rssCurve.length === 4 ? r.rssCurve[3] / r.rssCurve[1] - 1 : 0);
  const flat = Math.max(lastHalf(attr), lastHalf(attrW)) <= 0.1;
  log(`peak RSS flat over the second half of the corpus (≤ 10 % growth): ${flat ? "yes" : "NO"} (one core +${fmt(100 * lastHalf(attr), 0)} %, ${threads} workers +${fmt(100 * lastHalf(attrW), 0)} %)`);
  log(`rows identical on one core and on ${threads} workers (job order, sha1 of all rows): ${attr.digest === attrW.digest ? `yes (${attr.digest})` : `NO (${attr.digest} vs ${attrW.digest})`}`);
  const t = attr.totals;
  log(
    `totals: ${attr.records} records, ${t.tool_calls} tool calls (${t.edit_calls} successful edits, ${t.failed_calls} failed), ${t.api_calls} API calls; ` +
      `lines produced ${t.agent_lines_produced}, final ${t.agent_lines_final}, survived ${t.agent_lines_survived}, human ${t.human_lines}, outside ${t.outside_lines}, ` +
      `committed ${t.total_committed_lines}; unreplayable calls ${t.unreplayable_calls}, outside changes ${t.outside_changes}; diagnostics ${t.diagnostics} (${t.errors} errors); failed jobs ${attr.failures}`,
  );
  if (profileDir) {
    for (const spec of specs.filter((s) => s.kind !== "bare" && s.threads <= 1 && s.count === all)) {
      const d = join(profileDir, spec.id);
      const files = readdirSync(d).filter((f) => f.endsWith(".cpuprofile"));
      // The largest profile is the main thread's (the others are tsx's loader thread).
      const main = files.map((f) => join(d, f)).sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
      if (!main) continue;
      log("");
      log(`CPU profile of ${spec.label} (${main}):`);
      for (const l of summarizeProfile(main)) log(l);
    }
  }
  log(`attribution-throughput-ratio ${ratio.toFixed(2)}`);
}

if (process.argv.includes("--phase")) {
  const kind = arg("phase") as PhaseKind;
  runPhase(arg("dir")!, kind, Number(arg("threads", "1")), Number(arg("count")), Number(arg("passes", "1"))).then(
    (r) => (process.send ? process.send(r, () => process.exit(0)) : console.log(JSON.stringify(r))),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
