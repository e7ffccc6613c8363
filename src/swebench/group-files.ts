/**
 * From input paths to runs: walk each path, read every candidate file, and
 * decide which run each file belongs to.
 *
 * Run roots, found from the files' places:
 * - the harness's `logs/run_evaluation/<run_id>/<model>/<instance>/report.json`
 *   makes `…/<run_id>/<model>/` a root named `<run_id>/<model>`;
 * - the experiments layout `evaluation/<split>/<date_model>/` (with
 *   `results/results.json`, `metadata.yaml` or `logs/<instance>/report.json`)
 *   makes `<date_model>/` a root, and `<split>` hints the subset.
 * A file under a root belongs to it. The harness writes its run summary
 * `<model>.<run_id>.json` outside `logs/`, so a summary with that name joins
 * its root even when given as its own input; so does a predictions file
 * whose one model matches exactly one harness root. Other files belong to
 * their input's only harness root, or form a run of their own when the input
 * has no harness root; beside several harness roots they cannot be placed,
 * and say so.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve, sep } from "node:path";
import { type Diagnostic, DiagnosticSink } from "../model";
import { readSwebenchFile, type SwebenchFile } from "./read-file";
import { knownSubset, type SubsetInfo } from "./subsets";

export interface RunInput {
  path: string;
  /** The system this run belongs to (`SYSTEM=PATH` on the command line); derived when absent. */
  system?: string | null;
}

export interface RunGroup {
  /** Unique within one call. */
  name: string;
  system: string | null;
  root: string;
  /** The harness's `<model>` folder (model_name_or_path with `/` → `__`). */
  harness_model: string | null;
  split_hint: { info: SubsetInfo; source: string } | null;
  files: SwebenchFile[];
}

const CANDIDATE_EXTENSIONS = new Set([".json", ".jsonl", ".traj", ".yaml", ".yml", ".pred"]);
const SKIP_DIRS = new Set([".git", "node_modules"]);

function walk(path: string, out: string[]): void {
  const st = statSync(path);
  if (st.isFile()) {
    out.push(path);
    return;
  }
  if (!st.isDirectory()) return;
  const names = readdirSync(path).sort();
  for (const name of names) {
    const child = join(path, name);
    let s;
    try {
      s = statSync(child);
    } catch {
      continue;
    }
    if (s.isDirectory()) {
      if (!SKIP_DIRS.has(name)) walk(child, out);
    } else if (s.isFile() && CANDIDATE_EXTENSIONS.has(extname(name).toLowerCase())) {
      out.push(child);
    }
  }
}

interface Root {
  dir: string;
  name: string;
  harness: { run: string; model: string } | null;
  input: number;
}

/** The root a file's own place makes, if any. */
function rootOf(file: SwebenchFile, input: number): Root | null {
  const parts = file.path.split(sep);
  const i = parts.lastIndexOf("run_evaluation");
  if (i >= 0 && parts.length >= i + 5) {
    const [run, model] = [parts[i + 1], parts[i + 2]];
    return { dir: parts.slice(0, i + 3).join(sep), name: `${run}/${model}`, harness: { run, model }, input };
  }
  if (i >= 0) return null;
  const name = basename(file.path);
  const dir = dirname(file.path);
  if (file.kind === "results" && basename(dir) === "results") return experimentsRoot(dirname(dir), input);
  if (file.kind === "metadata" && /^metadata\.ya?ml$/.test(name)) return experimentsRoot(dir, input);
  if (name === "report.json" && basename(dirname(dir)) === "logs") return experimentsRoot(dirname(dirname(dir)), input);
  return null;
}

const experimentsRoot = (dir: string, input: number): Root => ({ dir, name: basename(dir), harness: null, input });

export interface GroupResult {
  groups: RunGroup[];
  diagnostics: Diagnostic[];
}

/** Reads every file of the inputs and groups them into runs (see the module comment). */
export function groupRunFiles(inputs: readonly RunInput[]): GroupResult {
  const diagnostics: Diagnostic[] = [];
  const perInput: SwebenchFile[][] = [];
  const seen = new Set<string>();
  inputs.forEach((input) => {
    const files: SwebenchFile[] = [];
    const paths: string[] = [];
    const abs = resolve(input.path);
    try {
      walk(abs, paths);
    } catch (err) {
      const sink = new DiagnosticSink("swebench", abs);
      sink.error("swebench-missing-input", `cannot read the input: ${(err as Error).message}`);
      diagnostics.push(...sink.rows);
    }
    for (const p of paths) {
      if (seen.has(p)) continue;
      seen.add(p);
      const r = readSwebenchFile(p);
      diagnostics.push(...r.diagnostics);
      files.push(r.file);
    }
    perInput.push(files);
  });

  const roots = new Map<string, Root>();
  perInput.forEach((files, input) => {
    for (const f of files) {
      const r = rootOf(f, input);
      if (r && !roots.has(r.dir)) roots.set(r.dir, r);
    }
  });
  const rootList = Array.from(roots.values()).sort((a, b) => b.dir.length - a.dir.length);
  const members = new Map<Root, SwebenchFile[]>();
  const defaults = new Map<number, SwebenchFile[]>();
  const push = <K>(m: Map<K, SwebenchFile[]>, k: K, f: SwebenchFile) => (m.get(k) ?? m.set(k, []).get(k)!).push(f);

  perInput.forEach((files, input) => {
    for (const f of files) {
      const home = rootList.find((r) => f.path.startsWith(r.dir + sep)) ?? byName(f, rootList);
      if (home) push(members, home, f);
      else if (f.kind === "run-info") {
        // `run_evaluation/<run_id>/run.json` describes every model folder of that run.
        const runId = basename(dirname(f.path));
        for (const r of rootList) if (r.harness?.run === runId) push(members, r, f);
      } else push(defaults, input, f);
    }
  });

  const groups: RunGroup[] = [];
  const names = new Set<string>();
  const unique = (name: string) => {
    let n = name;
    for (let k = 2; names.has(n); k++) n = `${name}#${k}`;
    names.add(n);
    return n;
  };
  inputs.forEach((input, i) => {
    const own = rootList.filter((r) => r.input === i).sort((a, b) => (a.dir < b.dir ? -1 : 1));
    const harnessRoots = own.filter((r) => r.harness !== null);
    const loose = defaults.get(i) ?? [];
    // An experiments folder holds all its files; loose files beside one harness run are that run's (preds.jsonl, the summary).
    const mergeInto = harnessRoots.length === 1 ? harnessRoots[0] : null;
    if (!mergeInto && harnessRoots.length === 0 && loose.length > 0) {
      const abs = resolve(input.path);
      const base = basename(abs).replace(/\.(jsonl?|traj|ya?ml)$/i, "");
      const hint = statSync(abs).isDirectory() && own.length === 0 ? splitHint(abs) : null;
      groups.push({
        name: unique(base),
        system: input.system ?? null,
        root: abs,
        harness_model: null,
        split_hint: hint,
        files: loose,
      });
    }
    if (harnessRoots.length > 1) {
      for (const f of loose) {
        const sink = new DiagnosticSink("swebench", f.path);
        sink.warn(
          "swebench-file-not-attributed",
          `${input.path} holds ${harnessRoots.length} harness runs and this ${f.kind} file belongs to none of them by place or name; it is not used`,
        );
        diagnostics.push(...sink.rows);
      }
    }
    for (const r of own) {
      const files = [...(members.get(r) ?? []), ...(r === mergeInto ? loose : [])];
      groups.push({
        name: unique(r.name),
        system: input.system ?? null,
        root: r.dir,
        harness_model: r.harness?.model ?? null,
        split_hint: r.harness ? null : splitHint(r.dir),
        files,
      });
    }
  });
  return { groups, diagnostics };
}

/** A summary named `<model>.<run_id>.json`, or predictions of one model, joins its harness root from anywhere. */
function byName(f: SwebenchFile, roots: readonly Root[]): Root | undefined {
  if (f.kind === "summary") {
    const name = basename(f.path);
    return roots.find((r) => r.harness && name === `${r.harness.model}.${r.harness.run}.json`);
  }
  if (f.kind === "predictions") {
    const models = new Set(f.predictions.map((p) => (p.model ?? "").replace(/\//g, "__")));
    if (models.size !== 1) return undefined;
    const [model] = models;
    const matches = roots.filter((r) => r.harness?.model === model);
    return matches.length === 1 ? matches[0] : undefined;
  }
  return undefined;
}

/** `evaluation/<split>/<date_model>`: the split folder names the subset. */
function splitHint(dir: string): RunGroup["split_hint"] {
  const split = basename(dirname(dir));
  const info = knownSubset(split);
  return info ? { info, source: `split folder ${split}/` } : null;
}
