/** What one session shares with an earlier file. */
export interface RepeatedCalls {
  /** Ids of its tool calls and API calls that an earlier session holds. */
  tool_ids: string[];
  api_ids: string[];
  /** The transcript of the earliest session that holds them (its session id when the file is unknown). */
  first_file: string;
}

/** The little of a session that deciding repeats needs. */
export interface CallIds {
  name: string;
  /** Only Claude Code ids (`toolu_…`, `msg_…`) are unique across sessions; other sessions take no part. */
  claude_code: boolean;
  started_ms: number | null;
  tool_ids: readonly string[];
  api_ids: readonly string[];
}

/**
 * A resumed or continued Claude Code session copies its history into the new
 * file, so the same tool uses and API calls appear in two transcripts
 * (formats.md §2.6: dedupe by `tool_use.id` across files). Each is kept in
 * the session that starts first (then by file name) and dropped from the
 * later ones, so neither the agent's lines nor the tokens are counted twice.
 * Returns, by index, the sessions that lose calls and which.
 */
export function repeatedAcrossFiles(sessions: readonly CallIds[]): Map<number, RepeatedCalls> {
  const order = sessions.map((_, i) => i).filter((i) => sessions[i].claude_code);
  const start = (i: number) => sessions[i].started_ms ?? Number.POSITIVE_INFINITY;
  const name = (i: number) => sessions[i].name;
  order.sort((a, b) => start(a) - start(b) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : a - b));
  const toolOwner = new Map<string, number>();
  const apiOwner = new Map<string, number>();
  const repeated = new Map<number, RepeatedCalls>();
  for (const i of order) {
    let first: number | null = null;
    const taken = (owners: Map<string, number>, ids: readonly string[]): string[] => {
      const out: string[] = [];
      for (const id of ids) {
        const owner = id === "" ? undefined : owners.get(id);
        if (owner === undefined || owner === i) continue;
        first ??= owner;
        out.push(id);
      }
      for (const id of ids) if (id !== "" && !owners.has(id)) owners.set(id, i);
      return out;
    };
    const tool_ids = taken(toolOwner, sessions[i].tool_ids);
    const api_ids = taken(apiOwner, sessions[i].api_ids);
    if (first !== null) repeated.set(i, { tool_ids, api_ids, first_file: name(first) });
  }
  return repeated;
}
