/**
 * One SWE-agent trajectory (`<instance_id>.traj`, v0 or function-calling) →
 * a `Session`, plus the run's own record: `info.submission` (the final
 * patch), `info.exit_status` and `info.model_stats`. Quirks: README.md.
 */
import {
  type ApiCall,
  type DiagnosticSink,
  emptyUsage,
  SESSION_FORMAT_VERSION,
  type Session,
  type Turn,
  checkRecordTokenCounts,
} from "../../model";
import type { SweCommand } from "./commands";
import {
  historyMessageSchema,
  infoSchema,
  modelStatsSchema,
  type RawHistoryMessage,
  replayConfigSchema,
  stepSchema,
  trajectorySchema,
} from "./schema";
import { readSteps, safeJson, stateOf } from "./steps";
import { normaliseNewlines } from "./submission";

export interface SweAgentModelStats {
  instance_cost: number | null;
  tokens_sent: number;
  tokens_received: number;
  api_calls: number;
}

export interface SweAgentTrajectory {
  session: Session;
  instance_id: string;
  /** `owner/name` from the SWE-bench instance id (`owner__name-123`), else from a working directory `/<owner>__<name>`, else null. */
  repo: string | null;
  format: "v0" | "function-calling";
  model: string | null;
  exit_status: string | null;
  /** `info.submission` with CRLF normalised to LF; null when the run submitted nothing. */
  submission: string | null;
  submission_had_crlf: boolean;
  model_stats: SweAgentModelStats | null;
  /** The command of each tool call, by call id (for categories and edit counts). */
  commands: Map<string, SweCommand>;
}

export interface SweAgentInput {
  text: string | Uint8Array;
  file: string;
}

const decoder = new TextDecoder("utf-8");
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses one trajectory; null (with an error diagnostic) when the document is not a usable trajectory. */
export function parseSweAgentTrajectory(input: SweAgentInput, sink: DiagnosticSink): SweAgentTrajectory | null {
  const text = typeof input.text === "string" ? input.text : decoder.decode(input.text);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
    checkRecordTokenCounts(doc, {}, sink);
  } catch (e) {
    const truncated = /Unexpected end|Unterminated|end of JSON/i.test(String(e));
    sink.error(
      truncated ? "swe-agent-truncated" : "swe-agent-invalid-json",
      `${input.file} is not valid JSON${truncated ? " (the document ends early: a truncated .traj)" : ""}: ${e instanceof Error ? e.message : String(e)}`,
    );
    return null;
  }
  const parsed = trajectorySchema.safeParse(doc);
  if (!parsed.success) {
    sink.error("swe-agent-not-a-trajectory", `${input.file} has no trajectory array`);
    return null;
  }
  const raw = parsed.data;
  const replay = replayConfigSchema.safeParse(
    typeof raw.replay_config === "string" ? safeJson(raw.replay_config) : (raw.replay_config ?? {}),
  );
  const config = replay.success ? replay.data : {};
  const info = infoSchema.parse(raw.info ?? {});
  const history = (raw.history ?? [])
    .map((h) => historyMessageSchema.safeParse(h))
    .flatMap((r) => (r.success ? [r.data] : []));
  const steps = raw.trajectory.map((s, i) => {
    const r = stepSchema.safeParse(s);
    if (!r.success) sink.warn("swe-agent-bad-step", `trajectory step ${i + 1} is not an object: skipped`, i + 1);
    return r.success ? r.data : null;
  });

  const instanceId = config.problem_statement?.id ?? instanceIdFromFile(input.file) ?? "unknown-instance";
  sink.sessionId = instanceId;
  const functionCalling =
    config.agent?.tools?.parse_function?.type === "function_calling" ||
    history.some((h) => (h.tool_calls?.length ?? 0) > 0);
  const model = config.agent?.model?.name ?? null;
  if (model === null)
    sink.info(
      "swe-agent-model-unknown",
      "the trajectory names no model (v0 files keep it only in the run's folder name): model left null",
    );

  const firstState = steps.map((s) => stateOf(s)).find((st) => st.working_dir !== undefined);
  const cwd = firstState?.working_dir ?? "/";
  const turns = problemTurn(config.problem_statement?.text ?? null, history, sink);
  const actions = actionMessages(history, steps.length, sink);
  const { calls, commands } = readSteps(steps, actions, cwd, sink);

  const stats = info.model_stats ? modelStatsSchema.parse(info.model_stats) : null;
  const modelStats: SweAgentModelStats | null = stats
    ? {
        instance_cost: stats.instance_cost ?? null,
        tokens_sent: stats.tokens_sent ?? 0,
        tokens_received: stats.tokens_received ?? 0,
        api_calls: stats.api_calls ?? 0,
      }
    : null;
  if (!modelStats)
    sink.info("swe-agent-no-model-stats", "info.model_stats is missing: tokens, API calls and cost unknown");
  else if ((modelStats.instance_cost ?? 0) === 0 && modelStats.api_calls > 0) {
    sink.info(
      "swe-agent-zero-cost",
      `model_stats records ${modelStats.api_calls} API calls but cost ${modelStats.instance_cost} and ${modelStats.tokens_sent} tokens sent (a demonstration or replayed run)`,
    );
  }
  // model_stats holds run totals, not per-request usage: one aggregate call carries them (the row takes the count from model_stats).
  const apiCalls: ApiCall[] = modelStats
    ? [
        {
          id: "model_stats",
          model,
          timestamp: null,
          record: steps.length,
          sidechain: false,
          usage: { ...emptyUsage(), input_tokens: modelStats.tokens_sent, output_tokens: modelStats.tokens_received },
          speed: null,
        },
      ]
    : [];

  const rawSubmission = typeof info.submission === "string" && info.submission.trim() !== "" ? info.submission : null;
  const hadCrlf = rawSubmission?.includes("\r\n") ?? false;
  if (hadCrlf)
    sink.info("swe-agent-submission-crlf", "info.submission has CRLF line ends (a pty-recorded run): normalised to LF");
  const exitStatus = typeof info.exit_status === "string" ? info.exit_status : null;
  if (rawSubmission === null)
    sink.info("swe-agent-no-submission", `the run submitted no patch (exit_status ${exitStatus ?? "missing"})`);
  else if (exitStatus !== null && !exitStatus.startsWith("submitted"))
    sink.info(
      "swe-agent-exit-status",
      `exit_status is "${exitStatus}": the submission was made automatically when the run stopped`,
    );

  const session: Session = {
    format_version: SESSION_FORMAT_VERSION,
    session_id: instanceId,
    source: "swe-agent",
    agent: "SWE-agent",
    agent_version: null,
    transcript: input.file,
    cwds: [cwd],
    branch: null,
    turns,
    tool_calls: calls,
    api_calls: apiCalls,
    record_times: [],
    record_count: steps.length,
  };
  return {
    session,
    instance_id: instanceId,
    // v0 files hold no instance id (it is the file name); their working directory is `/<owner>__<name>`.
    repo: repoOfInstance(instanceId) ?? /^\/([^/]+?)__([^/]+)$/.exec(cwd)?.slice(1, 3).join("/") ?? null,
    format: functionCalling ? "function-calling" : "v0",
    model,
    exit_status: exitStatus,
    submission: rawSubmission === null ? null : normaliseNewlines(rawSubmission),
    submission_had_crlf: hadCrlf,
    model_stats: modelStats,
    commands,
  };
}

/** `pydicom__pydicom-1458` from `…/pydicom__pydicom-1458.traj` or `pydicom__pydicom-1458.v0-default.traj`. */
export function instanceIdFromFile(file: string): string | null {
  const base = file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
  const m = /^([A-Za-z0-9_-]+__[A-Za-z0-9_.-]+?-\d+)(?:\.|$)/.exec(base);
  return m ? m[1] : base.replace(/\.traj$/, "") || null;
}

/** SWE-bench ids are `<owner>__<name>-<number>`. */
export function repoOfInstance(id: string): string | null {
  const m = /^(.+?)__(.+)-\d+$/.exec(id);
  return m ? `${m[1]}/${m[2]}` : null;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((p) => (isObject(p) && typeof p.text === "string" ? p.text : "")).join("");
  return "";
}

/** The problem statement is the one prompt (from `replay_config`, else cut from the first non-demo user message). */
function problemTurn(statement: string | null, history: RawHistoryMessage[], sink: DiagnosticSink): Turn[] {
  if (statement !== null && statement.trim() !== "") return [{ index: 0, text: statement, timestamp: null, record: 0 }];
  const first = history.find((h) => h.role === "user" && h.is_demo !== true);
  const text = first ? contentText(first.content) : "";
  const m = /ISSUE:\n([\s\S]*?)\n+INSTRUCTIONS:/.exec(text);
  if (m) return [{ index: 0, text: m[1], timestamp: null, record: 0 }];
  if (text.trim() !== "") {
    sink.info(
      "swe-agent-problem-uncut",
      "no ISSUE:/INSTRUCTIONS: markers in the first user message: the whole message is the prompt",
    );
    return [{ index: 0, text, timestamp: null, record: 0 }];
  }
  sink.warn("swe-agent-no-problem-statement", "no problem statement found: the session has no prompt");
  return [];
}

/** The assistant messages that carry the steps' actions, paired with steps by order when the counts agree. */
function actionMessages(
  history: RawHistoryMessage[],
  stepCount: number,
  sink: DiagnosticSink,
): (RawHistoryMessage | null)[] {
  const actions = history.filter(
    (h) => h.role === "assistant" && h.is_demo !== true && (h.action !== undefined || (h.tool_calls?.length ?? 0) > 0),
  );
  if (actions.length === stepCount) return actions;
  if (actions.some((h) => (h.tool_calls?.length ?? 0) > 0)) {
    sink.warn(
      "swe-agent-history-mismatch",
      `${actions.length} assistant actions in history for ${stepCount} trajectory steps: function-call arguments ignored, actions read from their text`,
    );
  }
  return new Array<RawHistoryMessage | null>(stepCount).fill(null);
}
