/**
 * Compares `swe-chat-eval analyze` with the independent reference implementation of metrics.md §1–4
 * (test/reference/) on one git repository with Entire checkpoints.
 *
 *   npx tsx scripts/verify-reference.ts REPO [--units PATH/units.csv|units.json] [--json OUT.json]
 *                                           [--trim-common] [--infer-slice-start]
 *
 * Without --units it runs the CLI as a user would (`analyze REPO --out <tmp> --quiet`) and reads its
 * units.json. Prints the units on each side, the units only one side has, agreement per column, and
 * one line per disagreeing (unit, column). Exit 0 when everything agrees, 1 otherwise, 2 on a usage error.
 *
 * --trim-common and --infer-slice-start switch the reference to the product's reading of two points
 * metrics.md leaves open (see ReferenceOptions in test/reference/reference.ts): what disagrees with
 * both switches on is computed differently, not read differently.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { agrees, compareUnits, formatComparison, readProductUnits } from "../test/reference/compare";
import { type ReferenceOptions, runReference } from "../test/reference/reference";

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npx tsx scripts/verify-reference.ts REPO [--units units.csv|units.json] [--json OUT.json] [--trim-common] [--infer-slice-start]\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let repo: string | null = null;
let unitsPath: string | null = null;
let jsonOut: string | null = null;
const options: ReferenceOptions = {};
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--trim-common") options.lineDiff = "trim-common";
  else if (args[i] === "--infer-slice-start") options.inferSliceStart = true;
  else if (args[i] === "--units") unitsPath = args[++i] ?? usage("--units needs a path");
  else if (args[i] === "--json") jsonOut = args[++i] ?? usage("--json needs a path");
  else if (args[i].startsWith("-")) usage(`unknown option ${args[i]}`);
  else if (repo === null) repo = resolve(args[i]);
  else usage("one REPO only");
}
if (!repo) usage("REPO is required");
if (!existsSync(repo)) usage(`no such path: ${repo}`);

let tmp: string | null = null;
if (!unitsPath) {
  tmp = mkdtempSync(join(tmpdir(), "verify-reference-"));
  const cli = resolve(process.cwd(), "bin/swe-chat-eval.js");
  const run = spawnSync(process.execPath, ["--import", "tsx", cli, "analyze", repo, "--out", tmp, "--quiet"], { stdio: ["ignore", "ignore", "inherit"] });
  if (run.status !== 0) {
    process.stderr.write(`swe-chat-eval analyze exited with ${run.status}\n`);
    process.exit(1);
  }
  unitsPath = join(tmp, "units.json");
}

const reference = runReference(repo, options);
const product = readProductUnits(unitsPath);
const comparison = compareUnits(reference.units, product);
process.stdout.write(`repository: ${repo}\ncheckpoints: ${reference.checkpoints}; session folders on no commit: ${reference.unlinked_session_folders}\n`);
process.stdout.write(`${formatComparison(comparison)}\n`);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ reference: reference.units, comparison }, null, 2)}\n`);
if (tmp) rmSync(tmp, { recursive: true, force: true });
process.exit(agrees(comparison) ? 0 : 1);
