/**
 * Compares `swe-chat-eval analyze` with the independent reference implementation of metrics.md §1–5
 * (test/reference/) on one git repository with Entire checkpoints: the units (§1–4, with the rates
 * and coding mode) and the sessions' effort (§5: tokens, API calls, time, prompts, model, cost).
 *
 *   npx tsx scripts/verify-reference.ts REPO [--units PATH/units.csv|units.json] [--sessions PATH/sessions.json|csv]
 *                                           [--json OUT.json] [--trim-common] [--infer-slice-start] [--zero-prompt-bin]
 *                                           [--models-with-main] [--unit-model-slice] [--multi-session-commit]
 *                                           [--follow-symlinks]
 *
 * Without --units it runs the CLI as a user would (`analyze REPO --out <tmp> --quiet`) and reads its
 * units.json. --sessions defaults to the sessions.json (else sessions.csv) beside the units file.
 * Prints the units and sessions on each side, those only one side has, agreement per column, and
 * one line per disagreeing (unit or session, column). Exit 0 when everything agrees, 1 otherwise,
 * 2 on a usage error.
 *
 * --infer-slice-start switches the reference to the product's reading of a point metrics.md leaves
 * open (see ReferenceOptions in test/reference/reference.ts): what disagrees with it on is computed
 * differently, not read differently. --trim-common is the product's line diff before session 2 (common
 * suffix matched first); the product now runs jsdiff on the whole arrays, as the reference does by
 * default, so it is only for reproducing old figures. --zero-prompt-bin switches the reading
 * for §5's length bins, which start at 1: the product puts a session with 0 prompts in bin "0".
 * --models-with-main (§6: the sessions' `models` also lists `model`, first) and --unit-model-slice
 * (a unit's `model` is its checkpoint slice's, not its session's) are the product's readings of §6.
 * --multi-session-commit adds the product's one reason beyond §1's list (a commit carrying the
 * checkpoints of several sessions). --follow-symlinks replays an edit through a symbolic link of the
 * repository (`CLAUDE.md → AGENTS.md`) on the file the link names, as the product does.
 *
 * When a group_units.json lies beside the units file, the groups of metrics.md §1b are compared too
 * (test/reference/groups.ts), column by column, joined on (group_id, session).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import {
  agrees,
  compareSessions,
  compareUnits,
  formatComparison,
  formatSessionComparison,
  readProductUnits,
  sessionsAgree,
} from "../test/reference/compare";
import type { EffortOptions } from "../test/reference/effort";
import type { SessionReadings } from "../test/reference/sessions";
import { type ReferenceOptions, runReference } from "../test/reference/reference";
import { runReferenceSessions } from "../test/reference/sessions";
import { compareGroups, formatGroupComparison, runReferenceGroups } from "../test/reference/groups";
import { readFileSync } from "node:fs";

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: npx tsx scripts/verify-reference.ts REPO [--units units.csv|units.json] [--sessions sessions.json|sessions.csv] [--json OUT.json] [--trim-common] [--infer-slice-start] [--zero-prompt-bin] [--models-with-main] [--unit-model-slice] [--multi-session-commit] [--follow-symlinks]\n`,
  );
  process.exit(2);
}

const args = process.argv.slice(2);
let repo: string | null = null;
let unitsPath: string | null = null;
let sessionsPath: string | null = null;
let jsonOut: string | null = null;
const options: ReferenceOptions = {};
const effortOptions: EffortOptions & SessionReadings = {};
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--trim-common") options.lineDiff = "trim-common";
  else if (args[i] === "--infer-slice-start") options.inferSliceStart = true;
  else if (args[i] === "--zero-prompt-bin") effortOptions.zeroPromptBin = "0";
  else if (args[i] === "--models-with-main") effortOptions.modelsWithMain = true;
  else if (args[i] === "--unit-model-slice") options.unitModel = "slice";
  else if (args[i] === "--multi-session-commit") options.multiSessionCommit = true;
  else if (args[i] === "--follow-symlinks") options.followSymlinks = true;
  else if (args[i] === "--sessions") sessionsPath = args[++i] ?? usage("--sessions needs a path");
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
  const run = spawnSync(process.execPath, ["--import", "tsx", cli, "analyze", repo, "--out", tmp, "--quiet"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (run.status !== 0) {
    process.stderr.write(`swe-chat-eval analyze exited with ${run.status}\n`);
    process.exit(1);
  }
  unitsPath = join(tmp, "units.json");
}

if (!sessionsPath) {
  const dir = dirname(unitsPath);
  sessionsPath = [join(dir, "sessions.json"), join(dir, "sessions.csv")].find((p) => existsSync(p)) ?? null;
}
if (!sessionsPath || !existsSync(sessionsPath)) usage(`no sessions table beside ${unitsPath}; give --sessions PATH`);

const reference = runReference(repo, options);
const comparison = compareUnits(reference.units, readProductUnits(unitsPath));
const sessions = runReferenceSessions(repo, effortOptions);
const sessionComparison = compareSessions(sessions, readProductUnits(sessionsPath));
process.stdout.write(
  `repository: ${repo}\ncheckpoints: ${reference.checkpoints}; session folders on no commit: ${reference.unlinked_session_folders}\n`,
);
process.stdout.write(`${formatComparison(comparison)}\n\n${formatSessionComparison(sessionComparison)}\n`);
// Groups (metrics.md §1b), when the product wrote group_units beside its units.
const groupsPath = join(dirname(unitsPath), "group_units.json");
let groupsAgree = true;
let groupReport: unknown = null;
if (existsSync(groupsPath)) {
  const productGroups = JSON.parse(readFileSync(groupsPath, "utf8")) as Record<string, unknown>[];
  const referenceGroups = runReferenceGroups(repo, { inferSliceStart: options.inferSliceStart });
  const groupComparison = compareGroups(referenceGroups, productGroups);
  groupsAgree =
    groupComparison.onlyReference.length + groupComparison.onlyProduct.length + groupComparison.diffs.length === 0;
  process.stdout.write(`\n${formatGroupComparison(referenceGroups, productGroups, groupComparison)}\n`);
  groupReport = { reference: referenceGroups, comparison: groupComparison };
} else process.stdout.write(`\nno group_units.json beside ${unitsPath}: groups not compared\n`);
if (jsonOut)
  writeFileSync(
    jsonOut,
    `${JSON.stringify({ reference: reference.units, comparison, sessions, sessionComparison, groups: groupReport }, null, 2)}\n`,
  );
if (tmp) rmSync(tmp, { recursive: true, force: true });
process.exit(agrees(comparison) && sessionsAgree(sessionComparison) && groupsAgree ? 0 : 1);
