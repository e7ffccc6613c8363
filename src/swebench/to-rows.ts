/**
 * A run's evidence and the subset → `instances` rows and one `runs` row.
 * Every subset instance is in exactly one class; instances the subset has
 * and the run does not name take the run's remainder class (`missing`, or
 * `unresolved` for results.json, which lists only resolved ids). When only
 * the subset's size is known, those are counted (`unlisted`), not listed.
 */
import { type Diagnostic, DiagnosticSink } from "../model";
import type { GradedBy, InstanceRecord, RunEvidence } from "./build-run";
import { classifyInstance, INSTANCE_CLASSES, type InstanceClass, recomputeResolved } from "./grade";
import type { DatasetInstance } from "./read-file";
import type { InstanceRow, RunRow } from "./rows";
import { repoOf, sortIds, type Subset } from "./subsets";

export interface RunRows {
  instances: InstanceRow[];
  run: RunRow;
  diagnostics: Diagnostic[];
}

/** The class and the evidence that decided it, in the order `classifyInstance` looks. */
function classOf(r: InstanceRecord, remainder: RunEvidence["remainder"]): { cls: InstanceClass; by: GradedBy } {
  const e = r.evidence;
  // A trajectory without a submission field says nothing about grading: the instance is as unnamed as one the run lacks.
  if (!e.report && e.patch === null && e.listed === null)
    return { cls: remainder, by: remainder === "unresolved" ? "results" : "none" };
  const cls = classifyInstance(e);
  if (e.report) return { cls, by: "report" };
  if (e.patch === "empty") return { cls, by: r.patch_source ?? "predictions" };
  if (e.listed) return { cls, by: r.listed_by ?? "none" };
  return { cls, by: r.patch_source ?? "predictions" };
}

function instanceRow(
  run: RunEvidence,
  subset: Subset,
  id: string,
  inSubset: boolean,
  data: DatasetInstance | null,
): InstanceRow {
  const r = run.instances.get(id) ?? null;
  const { cls, by } = r
    ? classOf(r, run.remainder)
    : { cls: run.remainder, by: (run.remainder === "unresolved" ? "results" : "none") as GradedBy };
  const report = r?.evidence.report ?? null;
  const tests = report?.tests ?? null;
  const reported = report?.reported_resolved ?? null;
  return {
    run: run.name,
    system: run.system,
    subset: subset.name,
    instance_id: id,
    repo: data?.repo ?? repoOf(id),
    difficulty: data?.difficulty ?? null,
    in_subset: inSubset,
    class: cls,
    resolved: cls === "resolved",
    reported_resolved: reported,
    disagrees: report && reported !== null ? reported !== recomputeResolved(report) : null,
    graded_by: by,
    patch: r?.evidence.patch ?? null,
    f2p_passed: tests?.f2p_passed ?? null,
    f2p_failed: tests?.f2p_failed ?? null,
    p2p_passed: tests?.p2p_passed ?? null,
    p2p_failed: tests?.p2p_failed ?? null,
    unreported_tests: tests?.unreported ?? null,
    infra_failure_reason: r?.infra_failure_reason ?? null,
    cost_usd: r?.cost_usd ?? null,
    tokens_sent: r?.tokens_sent ?? null,
    tokens_received: r?.tokens_received ?? null,
    api_calls: r?.api_calls ?? null,
    exit_status: r?.exit_status ?? null,
  };
}

const sumOrNull = (values: (number | null)[]): number | null => {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : present.reduce((s, v) => s + v, 0);
};

/** Grades one run against a subset (see the module comment). */
export function toRunRows(
  run: RunEvidence,
  subset: Subset,
  dataset: ReadonlyMap<string, DatasetInstance> | null = null,
): RunRows {
  const sink = new DiagnosticSink("swebench", run.root);
  const subsetIds = subset.ids ? new Set(subset.ids) : null;
  const ids = sortIds([...run.instances.keys(), ...(subset.ids ?? [])]);
  const instances = ids.map((id) =>
    instanceRow(run, subset, id, subsetIds ? subsetIds.has(id) : true, dataset?.get(id) ?? null),
  );
  const inside = instances.filter((r) => r.in_subset);
  const outside = instances.filter((r) => !r.in_subset);

  const counts = Object.fromEntries(INSTANCE_CLASSES.map((c) => [c, 0])) as Record<InstanceClass, number>;
  for (const r of inside) counts[r.class]++;
  let total = subset.size;
  let unlisted = 0;
  if (!subsetIds) {
    if (inside.length > subset.size) {
      sink.error(
        "swebench-subset-overflow",
        `${run.name} names ${inside.length} instances, more than the ${subset.size} of ${subset.label}; the denominator is ${inside.length}: pass --instances to fix the subset's ids`,
      );
      total = inside.length;
    }
    unlisted = total - inside.length;
    counts[run.remainder] += unlisted;
    if (unlisted > 0) {
      sink.info(
        "swebench-unlisted-instances",
        `${unlisted} instance(s) of ${subset.label} are not in ${run.name} and count as ${run.remainder === "missing" ? "missing (unresolved)" : "unresolved"}; their ids are unknown without --instances`,
      );
    }
  }
  if (outside.length > 0) {
    const shown = outside
      .slice(0, 5)
      .map((r) => r.instance_id)
      .join(", ");
    sink.warn(
      "swebench-outside-subset",
      `${outside.length} instance(s) of ${run.name} are not in ${subset.label} and are not counted (${shown}${outside.length > 5 ? ", …" : ""})`,
    );
  }
  if (run.summary_total !== null && run.summary_total !== subset.size) {
    sink.warn(
      "swebench-summary-total-differs",
      `the run summary graded against ${run.summary_total} instances; the subset ${subset.label} has ${subset.size}`,
    );
  }
  if (run.harness.startsWith("none") && inside.some((r) => r.patch === "present")) {
    sink.warn(
      "swebench-not-graded",
      `${run.name} has predictions but no report.json, run summary or results: every submitted patch counts as error`,
    );
  }
  const costs = inside.map((r) => r.cost_usd).filter((c): c is number => c !== null);
  const totalCost = costs.length === 0 ? null : costs.reduce((s, c) => s + c, 0);
  const row: RunRow = {
    run: run.name,
    system: run.system,
    subset: subset.name,
    subset_label: subset.label,
    subset_source: subset.source,
    total,
    resolved: counts.resolved,
    resolve_rate: total === 0 ? null : (100 * counts.resolved) / total,
    unresolved: counts.unresolved,
    regression: counts.regression,
    not_applied: counts.not_applied,
    empty_patch: counts.empty_patch,
    error: counts.error,
    missing: counts.missing,
    unlisted,
    outside_subset: outside.length,
    disagreements: inside.filter((r) => r.disagrees === true).length,
    harness: run.harness,
    cost_instances: costs.length,
    total_cost_usd: totalCost,
    mean_cost_usd: totalCost === null ? null : totalCost / costs.length,
    tokens_sent: sumOrNull(inside.map((r) => r.tokens_sent)),
    tokens_received: sumOrNull(inside.map((r) => r.tokens_received)),
    api_calls: sumOrNull(inside.map((r) => r.api_calls)),
    path: run.root,
  };
  return { instances, run: row, diagnostics: sink.rows };
}
