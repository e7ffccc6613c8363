/**
 * The blame view of a session page (issue 19): for each unit, the lines each
 * commit adds, with their owner as a class (colour) and a letter, the writing
 * call, and the unit's counts above them; and the explanation of each group
 * the session belongs to (issue 17). Pure: the line texts and commit subjects
 * are read before (./line-text.ts).
 */
import { formatCount } from "../charts";
import type { GroupUnitRow, LineRangeRow, UnitRow } from "../model";
import type { CommitInfo, LineTexts } from "./line-text";
import { lineTextKey } from "./line-text";

/** Committed lines shown per unit; the rest are counted and left to the line_ranges table. */
export const BLAME_LINE_LIMIT = 2000;

type OwnerKind = "agent" | "other" | "human" | "outside";
const MARK: Record<OwnerKind, string> = { agent: "A", other: "S", human: "H", outside: "O" };

const kindOf = (owner: string): OwnerKind =>
  owner === "agent" || owner === "human" || owner === "outside" ? owner : "other";

export interface BlameContext {
  texts: LineTexts;
  commits: Map<string, CommitInfo>;
  limit: number;
  mask: (s: string) => string;
  /** A session page's file name, for links to the other sessions of a group. */
  hrefOf: (sessionId: string) => string | null;
  /** Every group_units row of each group. */
  groupRows: Map<string, GroupUnitRow[]>;
  /** The commits linked to each session (units.commit_sha). */
  commitsOf: Map<string, string[]>;
}

interface Count {
  label: string;
  value: string;
  kind: OwnerKind;
  mark: string;
}

const count = (label: string, value: number | null, kind: OwnerKind): Count => ({
  label,
  value: value === null ? "–" : formatCount(value),
  kind,
  mark: MARK[kind],
});

/** The file blocks of a unit's ranges: per commit, per file, each line with its text and owner; cut at the limit. */
function blameFiles(ranges: readonly LineRangeRow[], ctx: BlameContext) {
  const files: {
    commit: string;
    path: string;
    lines: { n: number; text: string; kind: OwnerKind; mark: string; owner: string; call: string }[];
    noText: boolean;
  }[] = [];
  let shown = 0;
  let total = 0;
  for (const r of ranges) {
    const n = r.end_line - r.start_line + 1;
    total += n;
    if (shown >= ctx.limit) continue;
    let file = files.at(-1);
    if (!file || file.path !== ctx.mask(r.file) || file.commit !== r.commit_sha.slice(0, 12)) {
      file = { commit: r.commit_sha.slice(0, 12), path: ctx.mask(r.file), lines: [], noText: false };
      files.push(file);
    }
    const text = ctx.texts.get(lineTextKey(r.commit_sha, r.file));
    if (!text) file.noText = true;
    const kind = kindOf(r.owner);
    const owner = kind === "other" ? `session ${ctx.mask(r.owner)}` : r.owner;
    const call = r.tool_call_seq === null ? "" : `call #${r.tool_call_seq}`;
    for (let line = r.start_line; line <= r.end_line && shown < ctx.limit; line++, shown++) {
      file.lines.push({
        n: line,
        text: text ? ctx.mask(text[line - 1] ?? "") : "",
        kind,
        mark: MARK[kind],
        owner,
        call,
      });
    }
  }
  return {
    files,
    cut:
      total > shown
        ? `${formatCount(total - shown)} more committed lines not shown (the first ${formatCount(ctx.limit)} are); every line is in`
        : null,
    shown: formatCount(shown),
  };
}

/** One blame block per strict unit (ranges with no group) and per group unit of the session. */
export function blameUnits(
  units: readonly UnitRow[],
  groups: readonly GroupUnitRow[],
  ranges: readonly LineRangeRow[],
  ctx: BlameContext,
) {
  const strict = units
    .filter((u) => u.total_committed_lines !== null)
    .map((u) => {
      const own = ranges.filter((r) => r.group_id === null && r.commit_sha === u.commit_sha);
      return {
        title: `Strict unit, commit ${u.commit_sha.slice(0, 12)}`,
        // An ambiguous unit can still have counts (e.g. one session over several commits): shown, flagged.
        status: u.ambiguity === null ? null : `Counted, but left out of the strict figures (${u.ambiguity}).`,
        counts: [
          count("agent (survived)", u.agent_lines_survived, "agent"),
          count("human", u.human_lines, "human"),
          count("outside", u.outside_lines, "outside"),
        ],
        total: u.total_committed_lines === null ? "–" : formatCount(u.total_committed_lines),
        ...blameFiles(own, ctx),
        hasLines: own.length > 0,
      };
    });
  const strictShown = new Set(units.filter((u) => u.total_committed_lines !== null).map((u) => u.commit_sha));
  // A group of one session and one commit gives its strict unit's numbers (metrics.md §1b): its lines are not shown twice.
  const grouped = groups
    .filter(
      (g) =>
        g.total_committed_lines !== null &&
        !(g.group_commits === 1 && g.group_sessions === 1 && strictShown.has(g.commit_sha)),
    )
    .map((g) => {
      const own = ranges.filter((r) => r.group_id === g.group_id);
      return {
        title: `Group unit ${g.group_id}`,
        status: null,
        counts: [
          count("this session (survived)", g.agent_lines_survived, "agent"),
          count("other sessions", g.other_session_lines, "other"),
          count("human", g.human_lines, "human"),
          count("outside", g.outside_lines, "outside"),
        ],
        total: g.total_committed_lines === null ? "–" : formatCount(g.total_committed_lines),
        ...blameFiles(own, ctx),
        hasLines: own.length > 0,
      };
    });
  return [...strict, ...grouped];
}

/**
 * Each group the session belongs to: its commits (subject, in committer-date order: the tables do not hold the
 * replay's moments), its sessions with links, and the committed lines by owner from this session's row and the
 * line_ranges (each other session's share), which add up to the row's total.
 */
export function groupExplanations(
  sessionId: string,
  groups: readonly GroupUnitRow[],
  ranges: readonly LineRangeRow[],
  ctx: BlameContext,
) {
  return groups.map((g) => {
    const members = ctx.groupRows.get(g.group_id) ?? [g];
    const shas = [...new Set(members.flatMap((m) => ctx.commitsOf.get(m.session_id) ?? []))];
    const ordered = shas
      .map((sha) => ({ sha, info: ctx.commits.get(sha) ?? null }))
      .sort((a, b) => (a.info?.committed ?? 0) - (b.info?.committed ?? 0) || (a.sha < b.sha ? -1 : 1));
    const bySession = new Map<string, number>();
    for (const r of ranges)
      if (r.group_id === g.group_id && kindOf(r.owner) === "other")
        bySession.set(r.owner, (bySession.get(r.owner) ?? 0) + r.end_line - r.start_line + 1);
    return {
      id: g.group_id,
      status: g.ambiguity ?? "attributable",
      commitsCount: formatCount(g.group_commits),
      commitsFound:
        ordered.length === g.group_commits
          ? null
          : `${formatCount(ordered.length)} of ${formatCount(g.group_commits)} commits found through the sessions' units`,
      commits: ordered.map((c, i) => ({
        n: i + 1,
        sha: c.sha.slice(0, 12),
        subject: c.info ? ctx.mask(c.info.subject) : "(commit not read)",
        last: c.sha === g.commit_sha,
      })),
      sessions: members.map((m) => ({
        id: ctx.mask(m.session_id),
        href: ctx.hrefOf(m.session_id),
        self: m.session_id === sessionId,
        survived: m.agent_lines_survived === null ? "–" : formatCount(m.agent_lines_survived),
      })),
      owners: [
        count("this session", g.agent_lines_survived, "agent"),
        ...[...bySession.entries()].map(([id, n]) => count(`session ${ctx.mask(id)}`, n, "other")),
        ...(bySession.size === 0 && (g.other_session_lines ?? 0) > 0
          ? [count("other sessions", g.other_session_lines, "other")]
          : []),
        count("human", g.human_lines, "human"),
        count("outside", g.outside_lines, "outside"),
      ],
      total: g.total_committed_lines === null ? "–" : formatCount(g.total_committed_lines),
    };
  });
}
