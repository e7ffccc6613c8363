import { dominantModel } from "../effort";
import type { Session } from "../model";
import type { GroupCommit, GroupMember } from "./attribute-group";
import { callsInSlice } from "./replay-unit";

/**
 * A whole session as a group member where no checkpoint says which calls precede which commit (metrics.md §1b
 * "without Entire": transcripts linked by §1's rule, SWE-chat groups on clones): its calls in record order, each
 * before the first commit whose moment is later than its result. Where §1b is silent, a call with neither a result
 * nor a start time goes with the call before it (records are in order); one before any timed call, with the first
 * commit.
 */
export function memberFromSession(
  session: Session,
  commits: readonly GroupCommit[],
  base: Pick<GroupMember, "session_id" | "checkpoints" | "entire" | "touched">,
): GroupMember {
  let at = Number.NEGATIVE_INFINITY;
  const calls = callsInSlice(session, 0).map((call) => {
    const t = Date.parse(call.result_timestamp ?? call.timestamp ?? "");
    if (Number.isFinite(t)) at = t;
    const k = commits.findIndex((c) => at < c.moment);
    return { call, firstCommit: k === -1 ? commits.length : k };
  });
  return {
    ...base,
    agent: session.agent,
    model: dominantModel(session.api_calls),
    parts: [{ session, calls }],
    problem: null,
    started_ms: session.record_times[0] ?? Number.POSITIVE_INFINITY,
  };
}
