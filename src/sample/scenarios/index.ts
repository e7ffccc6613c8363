/**
 * The scenarios, in the order the project's history happened. The order is
 * part of the output: the shared worktree, the branches and the
 * checkpoints branch's random stream all carry over from one to the next.
 */
import type { SampleBuilder } from "../builder/sample-builder";
import { c0Initial } from "./c0-initial";
import { s01Slugify } from "./s01-slugify";
import { s02Table } from "./s02-table";
import { s03Duration } from "./s03-duration";
import { s04Exports } from "./s04-exports";
import { s05Subagent } from "./s05-subagent";
import { s06Plan } from "./s06-plan";
import { s07TwoSessions } from "./s07-two-sessions";
import { s08BytesFix } from "./s08-bytes-fix";
import { s09Mislabeled } from "./s09-mislabeled";
import { s10Lost } from "./s10-lost";
import { s11Worktree } from "./s11-worktree";
import { s12Csv } from "./s12-csv";
import { s13Legacy } from "./s13-legacy";
import { s14BodyTrailer } from "./s14-body-trailer";

export function buildHistory(b: SampleBuilder): void {
  c0Initial(b);
  s13Legacy(b);
  // Tom cuts the 0.1 release branch right after parseBytes landed.
  b.branchFrom("release/0.1", "main");
  s01Slugify(b);
  s02Table(b);
  s03Duration(b);
  s04Exports(b);
  s05Subagent(b);
  s06Plan(b);
  s07TwoSessions(b);
  s08BytesFix(b);
  s09Mislabeled(b);
  s10Lost(b);
  s11Worktree(b);
  s12Csv(b);
  s14BodyTrailer(b);
}
