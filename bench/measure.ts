/**
 * What the benches share (bench/README.md): run a command as a child process
 * through bench/rusage.py (wall time, CPU time and peak RSS from the kernel's
 * wait4), repeat, take medians, print a table, and summarise a V8 CPU profile.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const RUSAGE = join(ROOT, "bench", "rusage.py");

export interface Run {
  code: number;
  seconds: number;
  /** User + system CPU seconds of the process and the children it waited for. */
  cpu: number;
  /** ru_maxrss: the largest single process of the tree (Node with its worker threads). */
  peakRssMb: number;
  stdout: string;
}

export interface Command {
  id: string;
  label: string;
  argv: string[];
  env?: Record<string, string>;
  /** Keep stdout (ccusage's JSON, the floor's counts); otherwise it is dropped. */
  stdout?: boolean;
}

/** Runs `argv` once under bench/rusage.py. */
export async function measure(command: Command): Promise<Run> {
  const scratch = mkdtempSync(join(tmpdir(), "bench-rusage-"));
  const report = join(scratch, "rusage.json");
  try {
    const child = spawn("python3", [RUSAGE, report, ...command.argv], {
      cwd: ROOT,
      env: { ...process.env, ...command.env },
      stdio: ["ignore", command.stdout ? "pipe" : "ignore", "inherit"],
    });
    const chunks: Buffer[] = [];
    child.stdout?.on("data", (d: Buffer) => chunks.push(d));
    const exit = await new Promise<number | null>((res, rej) => (child.on("close", res), child.on("error", rej)));
    if (exit !== 0) throw new Error(`bench/rusage.py exited ${exit} (is python3 on PATH?)`);
    const r = JSON.parse(readFileSync(report, "utf8")) as {
      code: number;
      seconds: number;
      user: number;
      system: number;
      max_rss_kb: number;
    };
    return {
      code: r.code,
      seconds: r.seconds,
      cpu: r.user + r.system,
      peakRssMb: r.max_rss_kb / 1024,
      stdout: Buffer.concat(chunks).toString("utf8"),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export interface Measured {
  command: Command;
  runs: Run[];
}

/**
 * Runs every command `repeat` times, interleaved (one round runs each once, in order), so that a slow
 * spell of a shared machine falls on all of them alike. A command that fails stops the bench.
 */
export async function measureAll(
  commands: readonly Command[],
  repeat: number,
  log: (line: string) => void,
): Promise<Map<string, Measured>> {
  const out = new Map<string, Measured>(commands.map((c) => [c.id, { command: c, runs: [] }]));
  for (let r = 0; r < repeat; r++) {
    for (const c of commands) {
      const run = await measure(c);
      if (run.code !== 0) throw new Error(`${c.label} exited ${run.code}: ${c.argv.join(" ")}`);
      out.get(c.id)!.runs.push(run);
      log(
        `  run ${r + 1}/${repeat} ${c.label.padEnd(44)} ${run.seconds.toFixed(2).padStart(7)} s  ${run.cpu.toFixed(2).padStart(6)} CPU-s  ${run.peakRssMb.toFixed(0).padStart(5)} MB`,
      );
    }
  }
  return out;
}

export const wall = (m: Measured): number => median(m.runs.map((r) => r.seconds));

/** The table of medians: wall, spread, CPU, MB/s over `mb`, peak RSS (the highest of all runs). */
export function table(rows: readonly { m: Measured; mb: number; sessions: number }[]): string[] {
  const head = `${"command".padEnd(44)} ${"runs".padStart(4)} ${"median s".padStart(9)} ${"min–max s".padStart(12)} ${"CPU s".padStart(6)} ${"MB".padStart(7)} ${"MB/s".padStart(7)} ${"peak RSS MB".padStart(11)}`;
  const lines = [head];
  for (const { m, mb } of rows) {
    const s = m.runs.map((r) => r.seconds);
    const spread = `${Math.min(...s).toFixed(2)}–${Math.max(...s).toFixed(2)}`;
    lines.push(
      `${m.command.label.padEnd(44)} ${String(m.runs.length).padStart(4)} ${wall(m).toFixed(2).padStart(9)} ${spread.padStart(12)} ${median(
        m.runs.map((r) => r.cpu),
      )
        .toFixed(2)
        .padStart(6)} ${mb.toFixed(1).padStart(7)} ${(mb / wall(m)).toFixed(1).padStart(7)} ${Math.max(
        ...m.runs.map((r) => r.peakRssMb),
      )
        .toFixed(0)
        .padStart(11)}`,
    );
  }
  return lines;
}

/** Reads every page of `files` once, so that the first timed run does not pay the disk. */
export function warmPageCache(paths: readonly string[]): number {
  let bytes = 0;
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
    else bytes += readFileSync(p).length;
  };
  for (const p of paths) walk(p);
  return bytes;
}

/** ccusage's entry script (a pinned devDependency; `NODE_PATH` may point at another install), or null. */
export function ccusageCli(): string | null {
  try {
    const pkg = createRequire(join(ROOT, "package.json")).resolve("ccusage/package.json");
    const bin = (JSON.parse(readFileSync(pkg, "utf8")) as { bin: Record<string, string> }).bin.ccusage;
    return join(pkg, "..", bin);
  } catch {
    return null;
  }
}

export const ccusageVersion = (cli: string): string =>
  (JSON.parse(readFileSync(join(cli, "..", "..", "package.json"), "utf8")) as { version: string }).version;

/**
 * Self time by function and by file of V8 CPU profiles (`--cpu-prof`), heaviest first; `top` rows each.
 * Several profiles (worker threads) are summed.
 */
export function profileSummary(dir: string, top = 25): string[] {
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  /** Inclusive time of the project's own functions (src/): a sample counts once for each such function on its stack. */
  const inclusive = new Map<string, number>();
  let total = 0;
  const threads: string[] = [];
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith(".cpuprofile"))
    .sort()) {
    const p = JSON.parse(readFileSync(join(dir, f), "utf8")) as {
      nodes: {
        id: number;
        callFrame: { functionName: string; url: string; lineNumber: number };
        children?: number[];
      }[];
      samples: number[];
      timeDeltas: number[];
    };
    const nodes = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    let busy = 0;
    p.samples.forEach((id, i) => {
      const us = p.timeDeltas[i] ?? 0;
      const cf = nodes.get(id)!;
      // A thread waiting (the main thread while workers run, tsx's loader thread) is not work.
      if (cf.functionName === "(idle)") return;
      busy += us;
      const file = cf.url ? shortUrl(cf.url) : `(${cf.functionName || "native"})`;
      const fn = `${cf.functionName || "(anonymous)"} ${cf.url ? `${file}:${cf.lineNumber + 1}` : ""}`.trim();
      byFn.set(fn, (byFn.get(fn) ?? 0) + us);
      byFile.set(file, (byFile.get(file) ?? 0) + us);
      total += us;
      const onStack = new Set<string>();
      for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
        const f = nodes.get(x)!;
        const where = f.url ? shortUrl(f.url) : "";
        if (!where.startsWith("src/")) continue;
        const k = `${f.functionName || "(anonymous)"} ${where}:${f.lineNumber + 1}`;
        if (onStack.has(k)) continue;
        onStack.add(k);
        inclusive.set(k, (inclusive.get(k) ?? 0) + us);
      }
    });
    threads.push(`${f}: ${(busy / 1e6).toFixed(2)} s busy`);
  }
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([k, us]) =>
          `    ${(us / 1e6).toFixed(2).padStart(6)} s ${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`,
      );
  return [
    `  busy (sampled, idle left out) ${(total / 1e6).toFixed(2)} s: ${threads.join("; ")}`,
    "  self time by file:",
    ...rows(byFile),
    "  self time by function:",
    ...rows(byFn),
    "  inclusive time of the project's functions (src/):",
    ...rows(inclusive),
  ];
}

function shortUrl(url: string): string {
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  const nm = path.lastIndexOf("node_modules/");
  if (nm >= 0) return path.slice(nm + "node_modules/".length);
  return path.startsWith(ROOT) ? relative(ROOT, path) : path;
}
