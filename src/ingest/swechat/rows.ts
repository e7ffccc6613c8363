/**
 * A job's conversation rows: read column by column (./parquet.ts), coerced
 * per column (bigint, float and string numbers; Date or string timestamps),
 * and grouped by session. Rows of sessions the caller does not want (other
 * jobs' spanning sessions, deferred or excluded sessions) are skipped
 * before any object is made for them.
 */
import { type Columns, type ParquetPart, readColumns } from "./parquet";
import { bool, CONVERSATION_COLUMNS, type ConversationRow, int, num, str, time } from "./schema";

export interface JobRows {
  bySession: Map<string, ConversationRow[]>;
  /** Rows skipped because their turn number is missing or not a number. */
  invalid: number;
}

/**
 * Reads rows [rowStart, rowEnd) of `part` and keeps those of the wanted
 * sessions; `offset` is the part's first row in the whole table (for
 * `position`, the physical order that breaks turn-number ties).
 */
export async function readJobRows(
  part: ParquetPart,
  rowStart: number,
  rowEnd: number,
  offset: number,
  wanted: (sessionId: string) => boolean,
  read: (rowStart: number, rowEnd: number) => Promise<Columns> = (a, b) =>
    readColumns(part, CONVERSATION_COLUMNS, a, b),
): Promise<JobRows> {
  const c = await read(rowStart, rowEnd);
  const bySession = new Map<string, ConversationRow[]>();
  let invalid = 0;
  const n = rowEnd - rowStart;
  for (let i = 0; i < n; i++) {
    const sessionId = str(c.session_id[i]);
    if (sessionId === null || !wanted(sessionId)) continue;
    const turn = int(c.turn_number[i]);
    if (turn === null) {
      invalid++;
      continue;
    }
    const row: ConversationRow = {
      session_id: sessionId,
      turn_number: turn,
      turn_type: str(c.turn_type[i]),
      content: str(c.content[i]),
      model: str(c.model[i]),
      timestamp: time(c.timestamp[i]),
      input_tokens: num(c.input_tokens[i]),
      output_tokens: num(c.output_tokens[i]),
      cache_creation_input_tokens: num(c.cache_creation_input_tokens[i]),
      cache_read_input_tokens: num(c.cache_read_input_tokens[i]),
      is_continuation: bool(c.is_continuation[i]),
      tool_name: str(c.tool_name[i]),
      tool_call_id: str(c.tool_call_id[i]),
      file_path: str(c.file_path[i]),
      command: str(c.command[i]),
      bash_category: str(c.bash_category[i]),
      tool_input_json: str(c.tool_input_json[i]),
      prompt_intent: str(c.prompt_intent?.[i]),
      prompt_pushback: str(c.prompt_pushback?.[i]),
      position: offset + rowStart + i,
    };
    let list = bySession.get(sessionId);
    if (!list) bySession.set(sessionId, (list = []));
    list.push(row);
  }
  return { bySession, invalid };
}
