/**
 * Subsets: a resolve rate is meaningless without the instances it is out of
 * (metrics.md §8). Known sizes are data; an instance list fixes a custom
 * subset (and the ids of a named one).
 */

export interface SubsetInfo {
  name: string;
  label: string;
  size: number;
  /** The Hugging Face dataset that holds it (test split unless said). */
  dataset: string;
}

/**
 * Sizes from the harness docs and the leaderboard (taskflow-swebench.md
 * §2.2). The harness's `docs/guides/datasets.md` once said Lite has 534:
 * that is Lite's dev+test, not the 300 everyone reports.
 */
export const KNOWN_SUBSETS: readonly SubsetInfo[] = [
  { name: "full", label: "SWE-bench (full test split)", size: 2294, dataset: "SWE-bench/SWE-bench" },
  { name: "lite", label: "SWE-bench Lite", size: 300, dataset: "SWE-bench/SWE-bench_Lite" },
  { name: "verified", label: "SWE-bench Verified", size: 500, dataset: "SWE-bench/SWE-bench_Verified" },
  { name: "multilingual", label: "SWE-bench Multilingual", size: 300, dataset: "SWE-bench/SWE-bench_Multilingual" },
  { name: "multimodal", label: "SWE-bench Multimodal (test)", size: 500, dataset: "SWE-bench/SWE-bench_Multimodal" },
  {
    name: "multimodal-dev",
    label: "SWE-bench Multimodal (dev)",
    size: 100,
    dataset: "SWE-bench/SWE-bench_Multimodal, dev split",
  },
];

/** Other spellings: experiments' split folders (`evaluation/test`, `evaluation/bash-only` is Verified), dataset names. */
const ALIASES: Record<string, string> = {
  test: "full",
  "swe-bench": "full",
  swebench: "full",
  "bash-only": "verified",
  "swe-bench_lite": "lite",
  "swe-bench_verified": "verified",
  "swe-bench_multilingual": "multilingual",
  "swe-bench_multimodal": "multimodal",
};

/** The known subset of a name or alias (case-insensitive), or null. */
export function knownSubset(name: string): SubsetInfo | null {
  const key = name.trim().toLowerCase();
  const canonical = ALIASES[key] ?? key;
  for (const s of KNOWN_SUBSETS) if (s.name === canonical) return s;
  return null;
}

/** The subset one run is graded against: a name, a size, and the ids when a list fixed them. */
export interface Subset {
  name: string;
  label: string;
  size: number;
  /** Sorted ids, or null when only the size is known (missing instances are then counted, not listed). */
  ids: string[] | null;
  /** Where the subset came from, for the report: `--subset`, `--instances FILE`, a split folder, … */
  source: string;
}

export function namedSubset(info: SubsetInfo, source: string): Subset {
  return { name: info.name, label: info.label, size: info.size, ids: null, source };
}

/**
 * A subset fixed by an instance list. `name` takes a known subset's label
 * only when the list has that subset's size (a file named `verified.jsonl`
 * with 10 ids is a custom list, not Verified).
 */
export function listedSubset(name: string, ids: readonly string[], source: string): Subset {
  const sorted = sortIds(ids);
  const known = knownSubset(name);
  const matches = known !== null && known.size === sorted.length;
  return {
    name: matches ? known.name : known ? `custom-${name}` : name,
    label: matches ? known.label : `custom list ${name}`,
    size: sorted.length,
    ids: sorted,
    source,
  };
}

/** The subset a harness `run.json` (`{dataset, split}`) names, when it is a known one. */
export function subsetOfDataset(dataset: string, split: string | null): SubsetInfo | null {
  const tail = dataset.split("/").pop()!.toLowerCase();
  const base = knownSubset(tail);
  if (base?.name === "multimodal" && split === "dev") return knownSubset("multimodal-dev");
  if (base && split && split !== "test" && base.name !== "verified") return null;
  return base;
}

/** `django__django-11149` → `django/django`; null when the id does not have the `owner__repo-NNN` shape. */
export function repoOf(instanceId: string): string | null {
  const m = /^(.+?)__(.+)-\d+$/.exec(instanceId);
  return m ? `${m[1]}/${m[2]}` : null;
}

/**
 * The instance id at the start of a file name: `pydicom__pydicom-1458.v0-default.traj`
 * → `pydicom__pydicom-1458`; ids may hold dots (`chartjs__Chart.js-10301`).
 */
export function instanceIdOfName(name: string): string | null {
  const m = /^(.+?__.+?-\d+)(?=\.|$)/.exec(name);
  return m ? m[1] : null;
}

/** Code-unit order, so lists sort the same on every machine and locale. */
export function sortIds(ids: Iterable<string>): string[] {
  return Array.from(new Set(ids)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
