/**
 * Every committed line's owner (issue 19), gathered as runs while a unit is
 * attributed: consecutive lines of one file with the same owner and call
 * become one `line_ranges` row, so a file an agent call wrote whole costs one
 * row, and a worker hands back little more than the unit's counts.
 */
import type { LineRangeRow, Session } from "../model";

/** Who wrote one committed line: `agent` (or another session's id in a group), `human`, `outside`; and the call. */
export interface LineOwnerLabel {
  owner: string;
  /** The writing call's `tool_calls.seq`; null for lines no call wrote. */
  seq: number | null;
  model: string | null;
}

export type OnCommittedLine = (file: string, line: number, who: LineOwnerLabel) => void;

/** Gathers runs for one (session, commit, group). */
export class LineRangeCollector {
  readonly rows: LineRangeRow[] = [];
  private last: LineRangeRow | null = null;

  constructor(
    private readonly session_id: string,
    private readonly group_id: string | null,
  ) {}

  /** Lines must arrive in order within a file (as a commit's lines are walked). */
  add(commit_sha: string, file: string, line: number, who: LineOwnerLabel): void {
    const l = this.last;
    if (
      l !== null &&
      l.commit_sha === commit_sha &&
      l.file === file &&
      l.end_line + 1 === line &&
      l.owner === who.owner &&
      l.tool_call_seq === who.seq &&
      l.model === who.model
    ) {
      l.end_line = line;
      return;
    }
    this.last = {
      session_id: this.session_id,
      commit_sha,
      group_id: this.group_id,
      file,
      start_line: line,
      end_line: line,
      owner: who.owner,
      tool_call_seq: who.seq,
      model: who.model,
    };
    this.rows.push(this.last);
  }
}

/** `tool_calls.seq` (the call's place in the session) by call id; the first place when an id repeats. */
export function callSeqs(session: Session): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < session.tool_calls.length; i++)
    if (!out.has(session.tool_calls[i].id)) out.set(session.tool_calls[i].id, i);
  return out;
}

/** One row per committed line (the row form of `line_ranges`), for a notebook's questions about single lines. */
export interface LineRow {
  session_id: string;
  commit_sha: string;
  group_id: string | null;
  file: string;
  line: number;
  owner: string;
  tool_call_seq: number | null;
  model: string | null;
}

export function expandRanges(ranges: readonly LineRangeRow[]): LineRow[] {
  const out: LineRow[] = [];
  for (const r of ranges) {
    for (let line = r.start_line; line <= r.end_line; line++) {
      out.push({
        session_id: r.session_id,
        commit_sha: r.commit_sha,
        group_id: r.group_id,
        file: r.file,
        line,
        owner: r.owner,
        tool_call_seq: r.tool_call_seq,
        model: r.model,
      });
    }
  }
  return out;
}
