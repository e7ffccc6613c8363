/**
 * `npm run bench:entire` (bench/entire-repo/README.md): `swe-chat-eval
 * analyze` on a synthetic Entire repository (generate.ts), run as a user
 * does in a child process with `--threads 1` and `--threads 2`, beside the
 * floor (bare read + JSON.parse of every line of the stored transcripts,
 * extracted once from the checkpoints branch, 1 and 2 threads), each
 * `--runs` times, interleaved; medians, CPU time and peak RSS from
 * bench/rusage.py (wait4). On the 2-thread run's tables it reports units per
 * ambiguity reason, diagnostics per code, whether every excluded or
 * count-less unit is explained, and whether the units are the ones the
 * generator planted. `--verify` also runs the independent reference
 * implementation (scripts/verify-reference.ts).
 *
 *   tsx bench/entire-repo/run.ts --sessions 400 [--runs 3] [--verify] [--seed 1] [--min-kb 512] [--dir DIR] [--keep]
 *
 * Last lines, machine-readable:
 *   entire-scale sessions N units U seconds S peak-rss-mb M agree A/U   (S, M: the 2-thread run)
 *   cli-vs-floor X          (CLI 1 thread / floor 1 thread, wall medians)
 *   cli-2-thread-speedup Y  (CLI 1 thread / CLI 2 threads)
 * Exit 1 when analyze fails, a unit is unexplained, the units differ from
 * the planted ones, or (with --verify) the reference disagrees.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { AMBIGUITY_REASONS } from "../../src/ingest/entire";
import { type Command, measure, measureAll, ROOT, table as timingTable, wall, warmPageCache } from "../measure";
import { type EntireRepoManifest, ensureEntireRepo } from "./generate";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** The stored `full.jsonl` files of the checkpoints branch, written out once for the floor. */
function extractTranscripts(repo: string, to: string): void {
  mkdirSync(to, { recursive: true });
  execFileSync("sh", [
    "-c",
    'git -C "$1" archive --format=tar entire/checkpoints/v1 | tar -x -C "$2" --wildcards "*.jsonl"',
    "sh",
    repo,
    to,
  ]);
}

type Row = Record<string, any>;
const readRows = (dir: string, table: string): Row[] =>
  JSON.parse(readFileSync(join(dir, `${table}.json`), "utf8")) as Row[];
const COUNT_COLUMNS = [
  "agent_lines_produced",
  "agent_lines_final",
  "agent_lines_survived",
  "human_lines",
  "outside_lines",
  "total_committed_lines",
];
/** Reasons that by themselves say why a unit has no counts. */
const NULL_REASONS = new Set(["commit-unreadable", "transcript-missing", "transcript-unreadable"]);

function table(rows: [string, number][], indent = "  "): string {
  const width = Math.max(0, ...rows.map(([k]) => k.length));
  return rows.map(([k, n]) => `${indent}${k.padEnd(width)} ${String(n).padStart(6)}`).join("\n");
}

function countBy<T>(items: T[], key: (t: T) => string): [string, number][] {
  const m = new Map<string, number>();
  for (const t of items) m.set(key(t), (m.get(key(t)) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Every unit with an ambiguity or without counts must have a known reason or a warning/error diagnostic of its session. */
function unexplainedUnits(units: Row[], diagnostics: Row[]): string[] {
  const bySession = new Map<string, Row[]>();
  for (const d of diagnostics)
    if (d.session_id) bySession.set(d.session_id, [...(bySession.get(d.session_id) ?? []), d]);
  const out: string[] = [];
  for (const u of units) {
    const nullCounts = COUNT_COLUMNS.some((c) => u[c] === null || u[c] === undefined);
    if (u.ambiguity === null && !nullCounts) continue;
    const known = u.ambiguity === null || (AMBIGUITY_REASONS as readonly string[]).includes(u.ambiguity);
    const diag = (bySession.get(u.session_id) ?? []).filter((d) => d.severity === "warning" || d.severity === "error");
    const countsExplained = !nullCounts || NULL_REASONS.has(u.ambiguity) || diag.length > 0;
    if (!known || !countsExplained)
      out.push(
        `${u.session_id} @ ${String(u.commit_sha).slice(0, 10)} ambiguity=${u.ambiguity} counts=${nullCounts ? "null" : "present"}${known ? "" : " (unknown reason)"}`,
      );
  }
  return out;
}

/** The units the generator planted (manifest) against the product's. */
function compareWithManifest(
  manifest: EntireRepoManifest,
  units: Row[],
): { missing: string[]; extra: string[]; ambiguity: string[] } {
  const key = (u: { session_id: string; commit_sha: string; checkpoint_id: string }) =>
    `${u.session_id} ${u.commit_sha} ${u.checkpoint_id}`;
  const product = new Map(units.map((u) => [key(u as any), u]));
  const missing: string[] = [];
  const ambiguity: string[] = [];
  for (const e of manifest.expected_units) {
    const p = product.get(key(e));
    if (!p) missing.push(`${key(e)} (${e.quirk ?? "plain"})`);
    else if ((p.ambiguity ?? null) !== e.ambiguity)
      ambiguity.push(`${key(e)} (${e.quirk ?? "plain"}): planted ${e.ambiguity}, analyze says ${p.ambiguity}`);
    product.delete(key(e));
  }
  return { missing, extra: [...product.keys()], ambiguity };
}

/** metrics.md §4 invariants per unit. */
function invariantViolations(units: Row[]): string[] {
  const out: string[] = [];
  for (const u of units) {
    if (u.total_committed_lines === null || u.agent_lines_survived === null) continue;
    const bad: string[] = [];
    if (u.agent_lines_survived + u.human_lines + u.outside_lines !== u.total_committed_lines)
      bad.push("survived+human+outside≠total");
    if (u.agent_lines_survived > u.agent_lines_final) bad.push("survived>final");
    if (u.agent_lines_survived > u.agent_lines_produced) bad.push("survived>produced");
    for (const c of ["code_survival_rate", "coding_efficiency", "agent_authored_pct"])
      if (u[c] !== null && (u[c] < 0 || u[c] > 100)) bad.push(`${c} out of [0,100]`);
    if (bad.length > 0) out.push(`${u.session_id} @ ${String(u.commit_sha).slice(0, 10)}: ${bad.join(", ")}`);
  }
  return out;
}

function list(title: string, items: string[], max = 20): void {
  console.log(`${title}: ${items.length}`);
  for (const s of items.slice(0, max)) console.log(`    ${s}`);
  if (items.length > max) console.log(`    … ${items.length - max} more`);
}

async function main(): Promise<number> {
  const sessions = Number(arg("sessions") ?? 400);
  const verify = process.argv.includes("--verify");
  const load0 = loadavg();
  const {
    dir: repo,
    manifest,
    reused,
  } = await ensureEntireRepo({
    sessions,
    seed: Number(arg("seed") ?? 1),
    minKb: Number(arg("min-kb") ?? 512),
    out: arg("dir"),
    log: (l) => console.log(l),
  });
  console.log(`repository: ${repo} (${reused ? "reused" : `built in ${manifest.seconds.toFixed(1)} s`})`);
  console.log(
    `  ${manifest.session_list.length} sessions, ${manifest.checkpoint_list.length} checkpoints, ${(manifest.transcript_bytes / 1048576).toFixed(1)} MB of stored transcripts (${(manifest.session_bytes / 1048576).toFixed(1)} MB of distinct sessions), ${manifest.expected_units.length} planted units`,
  );
  console.log(
    `  quirks: ${Object.entries(manifest.quirks)
      .sort()
      .map(([q, n]) => `${q} ${n}`)
      .join(", ")}`,
  );

  const tmp = mkdtempSync(join(tmpdir(), "entire-scale-"));
  const runs = Number(arg("runs") ?? 3);
  const transcripts = join(tmp, "transcripts");
  extractTranscripts(repo, transcripts);
  warmPageCache([join(repo, ".git"), transcripts]);
  const cli = (threads: number) => [
    process.execPath,
    join(ROOT, "bin", "swe-chat-eval.js"),
    "analyze",
    repo,
    "--out",
    join(tmp, `out-${threads}`),
    "--quiet",
    "--threads",
    String(threads),
  ];
  const floor = (threads: number) => [
    process.execPath,
    join(ROOT, "bench", "floor.mjs"),
    "--threads",
    String(threads),
    transcripts,
  ];
  const commands: Command[] = [
    { id: "floor-1", label: "floor: stored transcripts, 1 thread", argv: floor(1), stdout: true },
    { id: "floor-2", label: "floor: stored transcripts, 2 threads", argv: floor(2), stdout: true },
    { id: "cli-1", label: "swe-chat-eval analyze --threads 1", argv: cli(1) },
    { id: "cli-2", label: "swe-chat-eval analyze --threads 2", argv: cli(2) },
  ];
  const out = join(tmp, "out-2");
  console.log(`\n$ ${cli(2).slice(1).join(" ")}`);
  console.log(
    `  machine: ${availableParallelism()} cores, load average before ${load0.map((x) => x.toFixed(2)).join(" ")}`,
  );
  console.log(`${runs} run(s) of each, interleaved:`);
  let measured;
  try {
    measured = await measureAll(commands, runs, (l) => console.log(l));
  } catch (e) {
    console.log(`analyze failed (${e instanceof Error ? e.message : String(e)}); output kept in ${tmp}`);
    console.log(`entire-scale sessions ${manifest.session_list.length} units 0 seconds - peak-rss-mb - agree -/0`);
    return 1;
  }
  const get = (id: string) => measured.get(id)!;
  const floorCount = JSON.parse(get("floor-1").runs[0].stdout) as { files: number; bytes: number; records: number };
  const mb = floorCount.bytes / 1048576;
  console.log("");
  for (const line of timingTable(commands.map((c) => ({ m: get(c.id), mb, sessions: manifest.session_list.length }))))
    console.log(line);
  console.log(
    `  (MB/s: over the ${floorCount.files} stored transcript files, ${mb.toFixed(1)} MB, ${floorCount.records} records; load average after ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")})`,
  );
  console.log(
    `  floor 2-thread speed-up (this machine's ceiling for this work): ${(wall(get("floor-1")) / wall(get("floor-2"))).toFixed(2)}`,
  );
  const seconds = wall(get("cli-2"));
  const peak = Math.max(...get("cli-2").runs.map((r) => r.peakRssMb));

  const units = readRows(out, "units");
  const diagnostics = readRows(out, "diagnostics");
  const sessionRows = readRows(out, "sessions");
  console.log(`\nsessions (rows of the sessions table): ${sessionRows.length}`);
  console.log(`units: ${units.length}`);
  console.log("units per ambiguity reason:");
  console.log(table(countBy(units, (u) => u.ambiguity ?? "(unambiguous)")));
  console.log("diagnostics per severity and code:");
  console.log(table(countBy(diagnostics, (d) => `${d.severity} ${d.code}`)));

  const unexplained = unexplainedUnits(units, diagnostics);
  console.log("");
  list("units with an ambiguity or null counts and no reason or diagnostic that explains them", unexplained);
  const planted = compareWithManifest(manifest, units);
  list("planted units analyze did not form", planted.missing);
  list("units analyze formed that were not planted", planted.extra);
  list("units whose ambiguity differs from the planted one", planted.ambiguity);
  const violations = invariantViolations(units);
  list("metrics.md §4 invariant violations", violations);
  const noCommit = manifest.checkpoint_list.filter((c) => c.stored && c.commits.length === 0).length;
  const said = diagnostics.filter((d) => d.code === "checkpoint-without-commit").length;
  console.log(`checkpoints on no commit: ${noCommit} planted, ${said} checkpoint-without-commit diagnostics`);
  const unknown = manifest.checkpoint_list.filter((c) => !c.stored).length;
  const saidUnknown = diagnostics.filter((d) => d.code === "commit-checkpoint-unknown").length;
  console.log(
    `trailers naming an unstored checkpoint: ${unknown} planted, ${saidUnknown} commit-checkpoint-unknown diagnostics`,
  );

  let agree = "-";
  let verifyFailed = false;
  if (verify) {
    const json = join(tmp, "verify.json");
    const v = [
      process.execPath,
      "--import",
      "tsx",
      join(ROOT, "scripts", "verify-reference.ts"),
      repo,
      "--units",
      join(out, "units.json"),
      "--infer-slice-start",
      "--models-with-main",
      "--unit-model-slice",
      "--multi-session-commit",
      "--json",
      json,
    ];
    console.log(`\n$ ${v.slice(1).join(" ")}`);
    const vr = await measure({ id: "verify", label: "verify", argv: v, stdout: true });
    const lines = vr.stdout.trim().split("\n");
    const cut = lines.findIndex((l) => l.startsWith("disagreements"));
    for (const l of cut >= 0 ? lines.slice(0, cut + 21) : lines) console.log(`  ${l}`);
    if (cut >= 0 && lines.length > cut + 21)
      console.log(`  … ${lines.length - cut - 21} more disagreement lines (full list in ${json})`);
    console.log(`  exit ${vr.code}, ${vr.seconds.toFixed(1)} s, peak RSS ${vr.peakRssMb.toFixed(0)} MB`);
    if (existsSync(json)) {
      const c = JSON.parse(readFileSync(json, "utf8")).comparison as {
        referenceUnits: number;
        onlyReference: string[];
        diffs: { key: string }[];
      };
      const joined = c.referenceUnits - c.onlyReference.length;
      const bad = new Set(c.diffs.map((d) => d.key)).size;
      agree = String(joined - bad);
    }
    verifyFailed = vr.code !== 0;
  }

  if (process.argv.includes("--keep")) console.log(`\noutput kept in ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
  console.log(
    `entire-scale sessions ${manifest.session_list.length} units ${units.length} seconds ${seconds.toFixed(1)} peak-rss-mb ${peak.toFixed(0)} agree ${agree}/${units.length}`,
  );
  console.log(`cli-vs-floor ${(wall(get("cli-1")) / wall(get("floor-1"))).toFixed(2)}`);
  console.log(`cli-2-thread-speedup ${(wall(get("cli-1")) / seconds).toFixed(2)}`);
  const failed =
    unexplained.length > 0 ||
    planted.missing.length + planted.extra.length + planted.ambiguity.length > 0 ||
    violations.length > 0 ||
    verifyFailed;
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
