/**
 * The one subset all runs of a call are graded against, so their rates share
 * a denominator: an instance list wins, then `--subset NAME`, then the runs'
 * own hints when they all agree (split folder, run.json, a full-size summary),
 * else the union of the instances the runs name, with a warning that says so.
 */
import { type Diagnostic, DiagnosticSink } from "../model";
import type { RunEvidence } from "./build-run";
import type { DatasetInstance } from "./read-file";
import { knownSubset, listedSubset, namedSubset, sortIds, type Subset } from "./subsets";

export interface SubsetRequest {
  /** `--subset NAME`: a known subset's name, or the name of the `--instances` list. */
  name?: string | null;
  /** `--instances FILE`, read: fixes the ids. */
  instances?: readonly DatasetInstance[] | null;
  /** Where the instance list came from, for the report. */
  instancesSource?: string | null;
}

export type SubsetChoice = { subset: Subset; diagnostics: Diagnostic[] } | { error: string };

export function chooseSubset(runs: readonly RunEvidence[], request: SubsetRequest = {}): SubsetChoice {
  const sink = new DiagnosticSink("swebench");
  const known = request.name ? knownSubset(request.name) : null;
  if (request.instances) {
    const ids = request.instances.map((d) => d.instance_id);
    if (ids.length === 0) return { error: `the instance list ${request.instancesSource ?? ""} names no instances` };
    const fileName = (request.instancesSource ?? "custom")
      .split(/[\\/]/)
      .pop()!
      .replace(/\.(jsonl?|txt)$/i, "");
    const name = request.name ?? fileName;
    const subset = listedSubset(name, ids, `--instances ${request.instancesSource ?? "list"}`);
    if (ids.length !== subset.size)
      sink.warn(
        "swebench-duplicate-instances",
        `the instance list repeats ${ids.length - subset.size} id(s); each counts once`,
      );
    if (known && known.size !== subset.size) {
      sink.warn(
        "swebench-subset-size",
        `${known.label} has ${known.size} instances; the list has ${subset.size}: the list is the denominator`,
      );
    }
    return { subset, diagnostics: sink.rows };
  }
  if (request.name) {
    if (!known)
      return {
        error: `unknown subset ${request.name}: use full, lite, verified, multilingual, multimodal, multimodal-dev, or --instances FILE`,
      };
    return { subset: namedSubset(known, `--subset ${request.name}`), diagnostics: [] };
  }
  const hints = runs.map((r) => r.subset_hint);
  if (runs.length > 0 && hints.every((h) => h && h.info.name === hints[0]!.info.name)) {
    const sources = sortIds(hints.map((h) => h!.source)).join("; ");
    return { subset: namedSubset(hints[0]!.info, sources), diagnostics: [] };
  }
  const ids = sortIds(runs.flatMap((r) => Array.from(r.instances.keys())));
  const subset = listedSubset("attempted", ids, "the union of the runs' instances (no --subset or --instances)");
  subset.label = `the ${ids.length} instances the runs name`;
  sink.warn(
    "swebench-subset-guessed",
    `no --subset or --instances: rates are out of ${subset.label}, not a published subset`,
  );
  return { subset, diagnostics: sink.rows };
}
