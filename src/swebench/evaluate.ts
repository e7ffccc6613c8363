/**
 * The driver: input paths → runs graded against one subset → the
 * `instances`, `runs` and `systems` tables and the diagnostics.
 */
import { resolve } from "node:path";
import type { Diagnostic } from "../model";
import { buildRun, type RunEvidence } from "./build-run";
import { chooseSubset } from "./choose-subset";
import { groupRunFiles, type RunInput } from "./group-files";
import { type DatasetInstance, readInstanceList } from "./read-file";
import type { InstanceRow, RunRow, SystemRow } from "./rows";
import { summarizeSystems } from "./summarize-systems";
import type { Subset } from "./subsets";
import { toRunRows } from "./to-rows";

export interface EvaluateRequest {
  inputs: readonly (RunInput | string)[];
  /** `--subset NAME`. */
  subset?: string | null;
  /** `--instances FILE`: a dataset instance list (or id list) that fixes the subset. */
  instances?: string | null;
}

export interface SwebenchResult {
  subset: Subset;
  instances: InstanceRow[];
  runs: RunRow[];
  systems: SystemRow[];
  diagnostics: Diagnostic[];
  /** The runs' evidence, for callers that need more than the rows. */
  evidence: RunEvidence[];
  /** False when no input held a SWE-bench file. */
  readAnything: boolean;
}

export type EvaluateOutcome = SwebenchResult | { error: string; diagnostics: Diagnostic[] };

/**
 * Reads the runs and grades them against one subset.
 *
 * @example
 * const r = evaluateRuns({ inputs: ["evaluation/verified/20240620_sweagent_claude3.5sonnet"], subset: "verified" });
 * if (!("error" in r)) console.table(r.runs);
 */
export function evaluateRuns(request: EvaluateRequest): EvaluateOutcome {
  const diagnostics: Diagnostic[] = [];
  let dataset: Map<string, DatasetInstance> | null = null;
  let list: DatasetInstance[] | null = null;
  if (request.instances) {
    const read = readInstanceList(resolve(request.instances));
    diagnostics.push(...read.diagnostics);
    if (read.instances.length === 0)
      return { error: `cannot read an instance list from ${request.instances}`, diagnostics };
    list = read.instances;
    dataset = new Map(list.map((d) => [d.instance_id, d]));
  }
  const inputs = request.inputs.map((i) => (typeof i === "string" ? { path: i } : i));
  const grouped = groupRunFiles(inputs);
  diagnostics.push(...grouped.diagnostics);
  const evidence = grouped.groups.map((g) => buildRun(g, { dataset }));
  for (const e of evidence) diagnostics.push(...e.diagnostics);
  const choice = chooseSubset(evidence, {
    name: request.subset ?? null,
    instances: list,
    instancesSource: request.instances ?? null,
  });
  if ("error" in choice) return { error: choice.error, diagnostics };
  diagnostics.push(...choice.diagnostics);
  const instances: InstanceRow[] = [];
  const runs: RunRow[] = [];
  for (const e of evidence) {
    const rows = toRunRows(e, choice.subset, dataset);
    instances.push(...rows.instances);
    runs.push(rows.run);
    diagnostics.push(...rows.diagnostics);
  }
  const readAnything = grouped.groups.some((g) => g.files.some((f) => f.kind !== "unknown" && f.kind !== "unreadable"));
  return {
    subset: choice.subset,
    instances,
    runs,
    systems: summarizeSystems(runs),
    diagnostics,
    evidence,
    readAnything,
  };
}
