import type { Session } from "../model";

/** What one session lost to an earlier file. */
export interface RepeatedCalls {
  tool_calls: number;
  api_calls: number;
  /** The transcript of the earliest session that holds them (its session id when the file is unknown). */
  first_file: string;
}

/**
 * A resumed or continued Claude Code session copies its history into the new
 * file, so the same tool uses and API calls appear in two transcripts
 * (formats.md §2.6: dedupe by `tool_use.id` across files). Each is kept in
 * the session that starts first (then by file name) and dropped from the
 * later ones, so neither the agent's lines nor the tokens are counted twice.
 * Only Claude Code ids (`toolu_…`, `msg_…`) are unique across sessions;
 * other agents' sessions are returned as they are.
 */
export function withoutRepeatsAcrossFiles(sessions: readonly Session[]): { sessions: Session[]; repeated: Map<number, RepeatedCalls> } {
  const order = sessions.map((_, i) => i).filter((i) => sessions[i].source === "claude-code");
  const name = (i: number) => sessions[i].transcript ?? sessions[i].session_id;
  order.sort((a, b) => startOf(sessions[a]) - startOf(sessions[b]) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : a - b));
  // Id → the index of the first session (in that order) that holds it.
  const toolOwner = new Map<string, number>();
  const apiOwner = new Map<string, number>();
  const out = sessions.slice();
  const repeated = new Map<number, RepeatedCalls>();
  for (const i of order) {
    const s = sessions[i];
    let first: number | null = null;
    const keep = <T extends { id: string }>(owners: Map<string, number>, c: T): boolean => {
      const owner = c.id === "" ? undefined : owners.get(c.id);
      if (owner === undefined || owner === i) return true;
      first ??= owner;
      return false;
    };
    const tool_calls = s.tool_calls.filter((c) => keep(toolOwner, c));
    const api_calls = s.api_calls.filter((c) => keep(apiOwner, c));
    for (const c of tool_calls) if (c.id !== "" && !toolOwner.has(c.id)) toolOwner.set(c.id, i);
    for (const c of api_calls) if (c.id !== "" && !apiOwner.has(c.id)) apiOwner.set(c.id, i);
    if (first !== null) {
      repeated.set(i, { tool_calls: s.tool_calls.length - tool_calls.length, api_calls: s.api_calls.length - api_calls.length, first_file: name(first) });
      out[i] = { ...s, tool_calls, api_calls };
    }
  }
  return { sessions: out, repeated };
}

function startOf(s: Session): number {
  return s.record_times.length > 0 ? s.record_times[0] : Number.POSITIVE_INFINITY;
}
