/**
 * One run's files → what the run says about each instance. Sources are read
 * in a fixed order so the result does not depend on file order: metadata,
 * run info, predictions, trajectories, then the listings (run summary before
 * results.json before per_instance_details: the first listing of an instance
 * wins and a later one that disagrees is a diagnostic), and last the
 * per-instance reports, which the rule grades whatever the listings said.
 */
import { basename, dirname } from "node:path";
import { type Diagnostic, DiagnosticSink } from "../model";
import { classifyReport, countTests, type GradedReport, type InstanceEvidence, type ListedOutcome } from "./grade";
import type { RunGroup } from "./group-files";
import type { DatasetInstance, SwebenchFile } from "./read-file";
import type { ReportEntry } from "./schema";
import { instanceIdOfName, knownSubset, sortIds, subsetOfDataset, type SubsetInfo } from "./subsets";

/** Which evidence decided an instance's class. */
export type GradedBy =
  | "report"
  | "summary"
  | "results"
  | "per_instance_details"
  | "predictions"
  | "trajectory"
  | "none";

export interface InstanceRecord {
  evidence: InstanceEvidence;
  patch_source: "predictions" | "trajectory" | null;
  listed_by: GradedBy | null;
  report_file: string | null;
  /** A report.json was there but empty or unreadable (the harness counts it as an error). */
  unreadable_report: boolean;
  infra_failure_reason: string | null;
  cost_usd: number | null;
  tokens_sent: number | null;
  tokens_received: number | null;
  api_calls: number | null;
  exit_status: string | null;
}

export interface RunEvidence {
  name: string;
  system: string;
  root: string;
  instances: Map<string, InstanceRecord>;
  /** The class of subset instances the run never names: results.json lists only resolved ids, so for it they are unresolved. */
  remainder: "missing" | "unresolved";
  subset_hint: { info: SubsetInfo; source: string } | null;
  /** The harness summary's `total_instances` (the dataset it graded against), to check the subset. */
  summary_total: number | null;
  /** What graded this run: report.json (harness), run summary, results.json, per_instance_details, or none. */
  harness: string;
  diagnostics: Diagnostic[];
}

export interface BuildOptions {
  /** Dataset instances by id: their FAIL_TO_PASS / PASS_TO_PASS lists check each report. */
  dataset?: ReadonlyMap<string, DatasetInstance> | null;
}

const ORDER: SwebenchFile["kind"][] = [
  "metadata",
  "run-info",
  "predictions",
  "traj",
  "summary",
  "results",
  "per-instance-details",
  "report",
  "unreadable",
  "dataset",
  "aggregate",
  "unknown",
];

const emptyRecord = (instance_id: string): InstanceRecord => ({
  evidence: { instance_id, patch: null, report: null, listed: null },
  patch_source: null,
  listed_by: null,
  report_file: null,
  unreadable_report: false,
  infra_failure_reason: null,
  cost_usd: null,
  tokens_sent: null,
  tokens_received: null,
  api_calls: null,
  exit_status: null,
});

/** Builds the evidence of one run (see the module comment). */
export function buildRun(group: RunGroup, options: BuildOptions = {}): RunEvidence {
  const sink = new DiagnosticSink("swebench", group.root);
  const instances = new Map<string, InstanceRecord>();
  const rec = (id: string) => instances.get(id) ?? instances.set(id, emptyRecord(id)).get(id)!;
  const files = [...group.files].sort(
    (a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || (a.path < b.path ? -1 : 1),
  );
  let metadataName: string | null = null;
  let hint = group.split_hint;
  let summaryTotal: number | null = null;
  let summaryModel: string | null = null;
  let remainder: RunEvidence["remainder"] = "missing";
  const models = new Map<string, number>();
  const harness = new Set<string>();
  const unknown: string[] = [];

  const list = (id: string, outcome: ListedOutcome, by: GradedBy, file: string) => {
    const r = rec(id);
    if (r.evidence.listed === null) {
      r.evidence.listed = outcome;
      r.listed_by = by;
    } else if (r.evidence.listed !== outcome && r.listed_by !== by) {
      sink.add(
        "warning",
        "swebench-listings-disagree",
        `${id}: ${r.listed_by} says ${r.evidence.listed}, ${by} says ${outcome}; ${r.listed_by} is kept`,
        null,
        { file },
      );
    }
  };

  for (const f of files) {
    switch (f.kind) {
      case "metadata":
        metadataName = f.metadata.name ?? f.metadata.info?.name ?? metadataName;
        break;
      case "run-info": {
        const info = f.info.dataset ? subsetOfDataset(f.info.dataset, f.info.split ?? null) : null;
        if (info && !hint) hint = { info, source: `run.json dataset ${f.info.dataset}` };
        break;
      }
      case "predictions":
        for (const p of f.predictions) {
          const r = rec(p.instance_id);
          if (r.patch_source === "predictions" && r.evidence.patch !== p.patch) {
            sink.add(
              "warning",
              "swebench-duplicate-prediction",
              `${p.instance_id}: two predictions disagree on the patch; the first is kept`,
              null,
              { file: f.path },
            );
            continue;
          }
          r.evidence.patch = p.patch;
          r.patch_source = "predictions";
          if (p.model) models.set(p.model, (models.get(p.model) ?? 0) + 1);
        }
        break;
      case "traj": {
        if (!f.instance_id) break;
        const r = rec(f.instance_id);
        r.cost_usd = f.stats.cost_usd;
        r.tokens_sent = f.stats.tokens_sent;
        r.tokens_received = f.stats.tokens_received;
        r.api_calls = f.stats.api_calls;
        r.exit_status = f.stats.exit_status;
        if (r.evidence.patch === null && f.stats.patch !== null) {
          r.evidence.patch = f.stats.patch;
          r.patch_source = "trajectory";
        }
        break;
      }
      case "summary": {
        harness.add("run summary");
        const s = f.summary;
        summaryTotal = s.total_instances ?? summaryTotal;
        summaryModel = s.model_name_or_path ?? summaryModel;
        const lists: [string[] | undefined, ListedOutcome][] = [
          [s.resolved_ids, "resolved"],
          [s.unresolved_ids, "unresolved"],
          [s.empty_patch_ids, "empty_patch"],
          [s.error_ids, "error"],
          [s.incomplete_ids, "missing"],
        ];
        for (const [ids, outcome] of lists) for (const id of ids ?? []) list(id, outcome, "summary", f.path);
        for (const [id, reason] of Object.entries(s.failure_reasons ?? {})) rec(id).infra_failure_reason = reason;
        break;
      }
      case "results": {
        harness.add("experiments results.json");
        remainder = "unresolved";
        const r = f.results;
        // Overlapping lists (the pre-Docker format's `generated` ⊇ `applied` ⊇ `resolved`): the first that names an instance decides.
        const lists: [string[] | undefined, ListedOutcome][] = [
          [r.resolved, "resolved"],
          [r.no_generation, "empty_patch"],
          [r.no_logs, "not_applied"],
          [r.no_apply, "not_applied"],
          [r.test_errored, "not_applied"],
          [r.test_timeout, "not_applied"],
          [r.reset_failed, "not_applied"],
          [r.install_fail, "error"],
        ];
        const named = new Set<string>();
        for (const [ids, outcome] of lists) {
          for (const id of ids ?? []) {
            if (named.has(id)) continue;
            named.add(id);
            list(id, outcome, "results", f.path);
          }
        }
        break;
      }
      case "per-instance-details":
        harness.add("per_instance_details");
        for (const [id, d] of Object.entries(f.details)) {
          list(id, d.resolved ? "resolved" : "unresolved", "per_instance_details", f.path);
          const r = rec(id);
          if (r.cost_usd === null && d.cost !== undefined) r.cost_usd = d.cost ?? null;
          if (r.api_calls === null && d.api_calls !== undefined) r.api_calls = d.api_calls ?? null;
        }
        break;
      case "report":
        for (const [id, entry] of Object.entries(f.entries)) {
          const folder = basename(dirname(f.path));
          if (instanceIdOfName(folder) && folder !== id) {
            sink.add(
              "warning",
              "swebench-report-folder-mismatch",
              `report.json in folder ${folder} grades ${id}; ${id} is used`,
              null,
              { file: f.path },
            );
          }
          addReport(rec(id), entry, f.path, options.dataset?.get(id) ?? null, sink, harness);
        }
        break;
      case "unreadable": {
        const id = basename(f.path) === "report.json" ? instanceIdOfName(basename(dirname(f.path))) : null;
        if (id) {
          const r = rec(id);
          r.unreadable_report = true;
          r.report_file = f.path;
          if (r.evidence.listed === null) {
            r.evidence.listed = "error";
            r.listed_by = "report";
          }
        }
        break;
      }
      case "dataset":
        sink.add(
          "info",
          "swebench-dataset-in-run",
          "a dataset instance list inside a run does not fix the subset; pass it with --instances",
          null,
          { file: f.path },
        );
        break;
      case "aggregate":
        sink.add(
          "info",
          "swebench-aggregate-ignored",
          "a per-repo or per-year aggregate is recomputed from the instances, not read",
          null,
          { file: f.path },
        );
        break;
      case "unknown":
        unknown.push(f.path);
        break;
    }
  }
  if (unknown.length > 0) {
    const shown = unknown
      .slice(0, 3)
      .map((p) => basename(p))
      .join(", ");
    sink.info(
      "swebench-unrecognized-files",
      `${unknown.length} file(s) are not SWE-bench files and were skipped (e.g. ${shown})`,
    );
  }
  if (!hint && summaryTotal === 2294) hint = { info: knownSubset("full")!, source: "run summary total_instances 2294" };
  checkAgreement(instances, sink);

  const topModel = sortIds(models.keys()).sort((a, b) => (models.get(b) ?? 0) - (models.get(a) ?? 0))[0] ?? null;
  const system = group.system ?? metadataName ?? group.harness_model ?? topModel ?? summaryModel ?? group.name;
  if (harness.size === 0) harness.add("none (not graded)");
  return {
    name: group.name,
    system,
    root: group.root,
    instances,
    remainder,
    subset_hint: hint,
    summary_total: summaryTotal,
    harness: Array.from(harness).join(" + "),
    diagnostics: sink.rows,
  };
}

function addReport(
  r: InstanceRecord,
  entry: ReportEntry,
  file: string,
  data: DatasetInstance | null,
  sink: DiagnosticSink,
  harness: Set<string>,
): void {
  const id = r.evidence.instance_id;
  if (r.evidence.report) {
    sink.add(
      "warning",
      "swebench-duplicate-report",
      `${id}: a second report.json; the first (${r.report_file}) is kept`,
      null,
      { file },
    );
    return;
  }
  // v5 writes `infra_failure` into every report it grades.
  harness.add(entry.infra_failure !== undefined ? "harness report.json (v5)" : "harness report.json");
  const expected =
    data?.fail_to_pass && data.pass_to_pass
      ? { fail_to_pass: data.fail_to_pass, pass_to_pass: data.pass_to_pass }
      : null;
  const tests = entry.tests_status ? countTests(entry.tests_status, expected) : null;
  if (tests && tests.unreported > 0) {
    sink.add(
      "warning",
      "swebench-tests-unreported",
      `${id}: ${tests.unreported} FAIL_TO_PASS/PASS_TO_PASS test(s) of the dataset are in neither list of the report; they count as failed`,
      null,
      { file },
    );
  }
  const report: GradedReport = {
    patch_exists: entry.patch_exists ?? entry.patch_is_None !== true,
    applied: entry.patch_successfully_applied ?? entry.tests_status !== undefined,
    tests,
    reported_resolved: entry.resolved ?? null,
    infra_failure_reason: entry.infra_failure_reason ?? null,
  };
  r.evidence.report = report;
  r.report_file = file;
  if (report.infra_failure_reason) r.infra_failure_reason = report.infra_failure_reason;
}

/**
 * Evidence that contradicts a report: a listing whose verdict differs from
 * the rule on the report, or a prediction whose patch state differs from the
 * report's (the files are then from different runs). The report is graded.
 */
function checkAgreement(instances: Map<string, InstanceRecord>, sink: DiagnosticSink): void {
  for (const [id, r] of instances) {
    const rep = r.evidence.report;
    if (!rep) continue;
    const ruled = classifyReport(rep);
    const listed = r.evidence.listed;
    if (listed !== null && r.listed_by !== "report" && (listed === "resolved") !== (ruled === "resolved")) {
      sink.add(
        "warning",
        "swebench-listing-disagrees-with-rule",
        `${id}: ${r.listed_by} says ${listed}, the rule on report.json says ${ruled}; the rule is kept`,
        null,
        { file: r.report_file },
      );
    }
    if (r.evidence.patch === null) continue;
    if ((r.evidence.patch === "present") !== rep.patch_exists) {
      sink.add(
        "warning",
        "swebench-patch-disagrees",
        `${id}: the ${r.patch_source} say the patch is ${r.evidence.patch}, the report says patch_exists=${rep.patch_exists}; the report is graded`,
        null,
        { file: r.report_file },
      );
    }
  }
}
