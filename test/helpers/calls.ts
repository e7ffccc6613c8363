import { type ApiCall, emptyUsage, type FileEdit, type ToolCall, type Usage } from "../../src/model";
import type { ReplayStep } from "../../src/replay";

let seq = 0;

/** A successful tool call with one file edit, for replay tests. */
export function step(path: string, edit: Partial<FileEdit> & Pick<FileEdit, "kind">, id = `call-${++seq}`): ReplayStep {
  const fileEdit: FileEdit = {
    path,
    pre_image: null,
    post_image: null,
    edits: null,
    patch: null,
    user_modified: false,
    ...edit,
  };
  const call: ToolCall = {
    id,
    name: edit.kind === "write" ? "Write" : "Edit",
    input: {},
    timestamp: null,
    record: seq,
    result_record: seq,
    success: true,
    error: null,
    sidechain: false,
    file_edits: [fileEdit],
  };
  return { call, edit: fileEdit, path };
}

let apiSeq = 0;

/** One API call of `model` with the given token counts (the rest 0), for effort tests. */
export function apiCall(model: string | null, usage: Partial<Usage>, extra: Partial<ApiCall> = {}): ApiCall {
  apiSeq++;
  return {
    id: `msg-${apiSeq}`,
    model,
    timestamp: null,
    record: apiSeq,
    sidechain: false,
    speed: null,
    usage: { ...emptyUsage(), ...usage },
    ...extra,
  };
}
