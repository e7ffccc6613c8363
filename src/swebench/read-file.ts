/**
 * Reads one file into a typed SWE-bench record: parse (JSON, JSONL or YAML,
 * whatever the name says), detect the kind by content, validate with the
 * kind's schema. Bad input becomes diagnostics and an `unreadable` file,
 * never a throw.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, extname } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { type Diagnostic, DiagnosticSink } from "../model";
import { readJsonl } from "../ingest/jsonl";
import { detectRecordsKind, detectSwebenchKind, recordKind, type SwebenchFileKind } from "./detect";
import {
  datasetInstanceSchema,
  experimentsResultsSchema,
  metadataSchema,
  perInstanceDetailsSchema,
  predictionSchema,
  reportFileSchema,
  runInfoSchema,
  runSummarySchema,
  trajSchema,
  type ExperimentsResults,
  type PerInstanceDetails,
  type ReportEntry,
  type RunInfo,
  type RunSummary,
  type SubmissionMetadata,
  type Traj,
} from "./schema";
import { instanceIdOfName } from "./subsets";

/** A dataset instance with its test lists decoded (null when the file does not have them). */
export interface DatasetInstance {
  instance_id: string;
  repo: string | null;
  fail_to_pass: string[] | null;
  pass_to_pass: string[] | null;
  difficulty: string | null;
}

/** A prediction without its patch text: whether there is a patch is all grading needs. */
export interface PredictionRecord {
  instance_id: string;
  model: string | null;
  patch: "present" | "empty";
}

/** What a trajectory says about cost; the steps themselves are dropped (a run's trajectories can be gigabytes). */
export interface TrajStats {
  format: "swe-agent" | "mini-swe-agent";
  cost_usd: number | null;
  tokens_sent: number | null;
  tokens_received: number | null;
  api_calls: number | null;
  exit_status: string | null;
  /** `info.submission`: null when the trajectory has none. */
  patch: "present" | "empty" | null;
}

export type SwebenchFile = { path: string } & (
  | { kind: "report"; entries: Record<string, ReportEntry> }
  | { kind: "summary"; summary: RunSummary }
  | { kind: "results"; results: ExperimentsResults }
  | { kind: "per-instance-details"; details: PerInstanceDetails }
  | { kind: "predictions"; predictions: PredictionRecord[] }
  | { kind: "traj"; instance_id: string | null; stats: TrajStats }
  | { kind: "dataset"; instances: DatasetInstance[] }
  | { kind: "run-info"; info: RunInfo }
  | { kind: "metadata"; metadata: SubmissionMetadata }
  | { kind: "aggregate" }
  | { kind: "unknown" }
  /** The file could not be parsed or failed its kind's schema (see the diagnostics). */
  | { kind: "unreadable"; reason: string }
);

export interface ReadResult {
  file: SwebenchFile;
  diagnostics: Diagnostic[];
}

const SOURCE = "swebench";

/** Reads and classifies one file. */
export function readSwebenchFile(path: string): ReadResult {
  const sink = new DiagnosticSink(SOURCE, path);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    sink.error("swebench-unreadable-file", `cannot read the file: ${(err as Error).message}`);
    return { file: { path, kind: "unreadable", reason: "cannot read" }, diagnostics: sink.rows };
  }
  return { file: classifyText(path, text, sink), diagnostics: sink.rows };
}

/** Classifies text already read (tests use it on strings). */
export function classifyText(path: string, text: string, sink: DiagnosticSink): SwebenchFile {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === "") {
    sink.error("swebench-empty-file", "the file is empty");
    return { path, kind: "unreadable", reason: "empty" };
  }
  const ext = extname(path).toLowerCase();
  const first = text.trimStart()[0];
  if (first === "{" || first === "[") {
    let value: unknown;
    let parsed = false;
    try {
      value = JSON.parse(text);
      parsed = true;
    } catch {
      // Not one document: JSONL, or broken.
    }
    // One record alone (a one-line JSONL file, SWE-agent's `<id>.pred`) is a list of one.
    if (parsed && !Array.isArray(value) && recordKind(value)) value = [value];
    if (parsed) return fromValue(path, value, detectSwebenchKind(value), sink);
    const { records, stats } = readJsonl(text, sink);
    if (stats.prettyPrinted || records.length === 0) {
      sink.error("swebench-invalid-json", "the file is neither one JSON document nor JSON Lines");
      return { path, kind: "unreadable", reason: "invalid JSON" };
    }
    const values = records.map((r) => r.value);
    return fromValue(path, values, detectRecordsKind(values), sink);
  }
  if (ext === ".yaml" || ext === ".yml") {
    let value: unknown;
    try {
      value = parseYaml(text);
    } catch (err) {
      sink.error("swebench-invalid-yaml", `not YAML: ${(err as Error).message.split("\n")[0]}`);
      return { path, kind: "unreadable", reason: "invalid YAML" };
    }
    return fromValue(path, value, detectSwebenchKind(value, true), sink);
  }
  return { path, kind: "unknown" };
}

function schemaError(sink: DiagnosticSink, kind: string, error: z.ZodError, record: number | null = null): void {
  const text = z.prettifyError(error).replace(/\s+/g, " ").slice(0, 400);
  sink.error("swebench-schema", `not a valid ${kind}: ${text}`, record);
}

function fromValue(path: string, value: unknown, kind: SwebenchFileKind, sink: DiagnosticSink): SwebenchFile {
  const unreadable = (reason: string): SwebenchFile => ({ path, kind: "unreadable", reason });
  switch (kind) {
    case "report": {
      const r = reportFileSchema.safeParse(value);
      if (!r.success) return (schemaError(sink, "report.json", r.error), unreadable("schema"));
      return { path, kind, entries: r.data };
    }
    case "summary": {
      const r = runSummarySchema.safeParse(value);
      if (!r.success) return (schemaError(sink, "run summary", r.error), unreadable("schema"));
      return { path, kind, summary: r.data };
    }
    case "results": {
      const r = experimentsResultsSchema.safeParse(value);
      if (!r.success) return (schemaError(sink, "results.json", r.error), unreadable("schema"));
      return { path, kind, results: r.data };
    }
    case "per-instance-details": {
      const inner = (value as Record<string, unknown>).per_instance_details ?? value;
      const r = perInstanceDetailsSchema.safeParse(inner);
      if (!r.success) return (schemaError(sink, "per_instance_details", r.error), unreadable("schema"));
      return { path, kind, details: r.data };
    }
    case "predictions":
      return { path, kind, predictions: readPredictions(value, sink) };
    case "dataset":
      return { path, kind, instances: readDataset(value as unknown[], sink) };
    case "traj": {
      const r = trajSchema.safeParse(value);
      if (!r.success) return (schemaError(sink, "trajectory", r.error), unreadable("schema"));
      // The id is in the file name (`<id>.traj`, `<id>.traj.json`) or its folder (`<id>/<id>.traj`); the file itself does not carry it.
      const id = instanceIdOfName(basename(path)) ?? instanceIdOfName(basename(dirname(path)));
      if (!id)
        sink.warn(
          "swebench-traj-no-instance",
          "no instance id in the trajectory's file or folder name; its cost is not attributed",
        );
      return { path, kind, instance_id: id, stats: trajStats(r.data, sink) };
    }
    case "run-info": {
      const r = runInfoSchema.safeParse(value);
      if (!r.success) return (schemaError(sink, "run.json", r.error), unreadable("schema"));
      return { path, kind, info: r.data };
    }
    case "metadata": {
      const r = metadataSchema.safeParse(value);
      if (!r.success) return (schemaError(sink, "metadata.yaml", r.error), unreadable("schema"));
      return { path, kind, metadata: r.data };
    }
    case "aggregate":
      return { path, kind };
    default:
      return { path, kind: "unknown" };
  }
}

const patchState = (patch: string | null | undefined): "present" | "empty" =>
  typeof patch === "string" && patch.trim() !== "" ? "present" : "empty";

function trajStats(traj: Traj, sink: DiagnosticSink): TrajStats {
  const stats = traj.info.model_stats ?? null;
  if (!stats)
    sink.warn(
      "swebench-traj-no-stats",
      "the trajectory has no info.model_stats: no cost, tokens or API calls for this instance",
    );
  const cost = stats ? (stats.instance_cost ?? stats.total_cost ?? null) : null;
  const calls = stats?.api_calls ?? null;
  // A replayed trajectory (SWE-agent demonstrations) keeps its API calls but zeroes the cost.
  if (cost === 0 && calls !== null && calls > 0)
    sink.warn("swebench-traj-zero-cost", `instance_cost is 0 with ${calls} API calls (a replayed trajectory?)`);
  const submission = traj.info.submission;
  return {
    format:
      traj.trajectory_format?.startsWith("mini-swe-agent") || (traj.messages && !traj.trajectory)
        ? "mini-swe-agent"
        : "swe-agent",
    cost_usd: cost,
    tokens_sent: stats?.tokens_sent ?? null,
    tokens_received: stats?.tokens_received ?? null,
    api_calls: calls,
    exit_status: traj.info.exit_status ?? null,
    patch: submission === undefined ? null : patchState(submission),
  };
}

/** JSONL / list `.json` / dict `.json` keyed by instance id (the harness takes the dict's values). */
function readPredictions(value: unknown, sink: DiagnosticSink): PredictionRecord[] {
  const entries: [string | null, unknown][] = Array.isArray(value)
    ? value.map((v) => [null, v])
    : Object.entries(value as Record<string, unknown>);
  const out: PredictionRecord[] = [];
  entries.forEach(([key, raw], i) => {
    const withId =
      key !== null && typeof raw === "object" && raw !== null && !("instance_id" in raw)
        ? { ...raw, instance_id: key }
        : raw;
    const r = predictionSchema.safeParse(withId);
    if (!r.success) return schemaError(sink, "prediction", r.error, i + 1);
    if (key !== null && r.data.instance_id !== key) {
      sink.warn(
        "swebench-prediction-key-mismatch",
        `the dict key ${key} holds a prediction for ${r.data.instance_id}; the instance_id is used`,
        i + 1,
      );
    }
    out.push({
      instance_id: r.data.instance_id,
      model: r.data.model_name_or_path ?? null,
      patch: patchState(r.data.model_patch),
    });
  });
  return out;
}

function decodeTests(
  raw: string[] | string | undefined,
  field: string,
  id: string,
  sink: DiagnosticSink,
  record: number,
): string[] | null {
  if (raw === undefined) return null;
  if (Array.isArray(raw)) return raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed) && parsed.every((t) => typeof t === "string")) return parsed as string[];
  } catch {
    // reported below
  }
  sink.error("swebench-dataset-tests", `${id}: ${field} is a string that is not a JSON list of test ids`, record);
  return null;
}

function readDataset(values: unknown[], sink: DiagnosticSink): DatasetInstance[] {
  const out: DatasetInstance[] = [];
  values.forEach((raw, i) => {
    const r = datasetInstanceSchema.safeParse(raw);
    if (!r.success) return schemaError(sink, "dataset instance", r.error, i + 1);
    const d = r.data;
    out.push({
      instance_id: d.instance_id,
      repo: d.repo ?? null,
      fail_to_pass: decodeTests(d.FAIL_TO_PASS, "FAIL_TO_PASS", d.instance_id, sink, i + 1),
      pass_to_pass: decodeTests(d.PASS_TO_PASS, "PASS_TO_PASS", d.instance_id, sink, i + 1),
      difficulty: d.difficulty ?? null,
    });
  });
  return out;
}

/**
 * Reads a subset's instance list: dataset records (JSON list or JSONL), a
 * predictions file, a JSON list of ids, or a text file with one id per line.
 * Anything else is an error diagnostic and an empty list.
 */
export function readInstanceList(path: string): { instances: DatasetInstance[]; diagnostics: Diagnostic[] } {
  const bare = (id: string): DatasetInstance => ({
    instance_id: id,
    repo: null,
    fail_to_pass: null,
    pass_to_pass: null,
    difficulty: null,
  });
  const ids = readIdList(path);
  if (ids) return { instances: ids.map(bare), diagnostics: [] };
  const { file, diagnostics } = readSwebenchFile(path);
  if (file.kind === "dataset") return { instances: file.instances, diagnostics };
  if (file.kind === "predictions") return { instances: file.predictions.map((p) => bare(p.instance_id)), diagnostics };
  const sink = new DiagnosticSink(SOURCE, path);
  sink.error(
    "swebench-not-an-instance-list",
    `expected a dataset instance list (records with instance_id and FAIL_TO_PASS/PASS_TO_PASS), a list of ids or one id per line; found ${file.kind}`,
  );
  return { instances: [], diagnostics: [...diagnostics, ...sink.rows] };
}

/** A JSON list of id strings, or lines that each look like `owner__repo-NNN`; null otherwise. */
function readIdList(path: string): string[] | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  } catch {
    return null;
  }
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    try {
      const v: unknown = JSON.parse(trimmed);
      if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string")) return v as string[];
    } catch {
      return null;
    }
    return null;
  }
  const lines = trimmed
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (lines.length > 0 && lines.every((l) => /^[^\s{}[\]"]+__[^\s{}[\]"]+-\d+$/.test(l))) return lines;
  return null;
}
