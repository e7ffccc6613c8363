import { createHash } from "node:crypto";
import type { DiagnosticSink } from "../../model";
import { CLASSIFIER_INSTRUCTION, normaliseLabel, TASK_LABELS, type TaskLabel, taxonomyText } from "../taxonomy";
import { LabelCache } from "./cache";
import { parseAnswer } from "./parse-answer";

/**
 * The paper's classifier over any OpenAI-compatible chat-completions
 * endpoint: its instruction, the 16 definitions, and a structured answer
 * restricted to the labels (`response_format: json_schema` with an enum),
 * read tolerantly when a server ignores the schema. Answers are cached by a
 * hash of (model, prompt version, message), identical messages are asked
 * once, at most `concurrency` requests run at a time, and 429/5xx/network
 * failures are retried with exponential backoff (honouring Retry-After).
 */
export interface LlmOptions {
  /** Default: $TASKFLOW_LLM_BASE_URL, $OPENAI_BASE_URL, then https://api.openai.com/v1. */
  baseUrl?: string;
  /** Default: $TASKFLOW_LLM_MODEL, $OPENAI_MODEL (required). */
  model?: string;
  /** Default: $TASKFLOW_LLM_API_KEY, $OPENAI_API_KEY (none is sent when absent: local servers). */
  apiKey?: string;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Retries after the first attempt (default 4). */
  retries?: number;
  /** First backoff in ms, doubled each retry (default 500). */
  backoffMs?: number;
  /** Cap on any single wait, including Retry-After (default 30 000). */
  maxBackoffMs?: number;
  timeoutMs?: number;
  /** A JSONL cache file (created if absent); null or absent: memory only. */
  cacheFile?: string | null;
  /** Messages longer than this are cut (default 12 000 characters): intent is stated early and context windows are finite. */
  maxChars?: number;
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/** Bumped when the prompt or schema changes, so old cache entries are not reused. */
export const LLM_PROMPT_VERSION = "taskflow-v1";

export interface LlmStats {
  messages: number;
  cacheHits: number;
  requests: number;
  retries: number;
  failures: number;
  /** Answers that needed the tolerant parse (no valid structured output). */
  fallbackParses: number;
}

export interface ResolvedLlm {
  baseUrl: string;
  /** Null when neither the options nor the environment name one (a usage error). */
  model: string | null;
  apiKey: string | null;
}

/** Base URL, model and key from options, then the environment. */
export function resolveLlmOptions(o: LlmOptions = {}): ResolvedLlm {
  const env = o.env ?? process.env;
  const baseUrl = (
    o.baseUrl ??
    env.TASKFLOW_LLM_BASE_URL ??
    env.OPENAI_BASE_URL ??
    "https://api.openai.com/v1"
  ).replace(/\/+$/, "");
  const model = o.model ?? env.TASKFLOW_LLM_MODEL ?? env.OPENAI_MODEL ?? null;
  const apiKey = o.apiKey ?? env.TASKFLOW_LLM_API_KEY ?? env.OPENAI_API_KEY ?? null;
  return { baseUrl, model, apiKey };
}

/** The JSON schema of the answer: one `task_type` from the 16 labels. */
export const ANSWER_SCHEMA = {
  type: "object",
  properties: { task_type: { type: "string", enum: [...TASK_LABELS] } },
  required: ["task_type"],
  additionalProperties: false,
} as const;

export function buildRequest(model: string, text: string, structured: boolean): Record<string, unknown> {
  return buildLabelRequest(TASK_SPEC, model, text, structured);
}

/**
 * What one closed-label classification asks an endpoint: the instruction, the answer's JSON field and labels,
 * and how a label is read back. Task Flow's task types are one (TASK_SPEC); SWE-chat's pushback kinds another.
 */
export interface LabelSpec<L extends string> {
  /** Part of the cache key: bumped when the instruction or schema changes. */
  promptVersion: string;
  /** The system message, ending with the answer's form. */
  system: string;
  field: string;
  labels: readonly L[];
  normalise: (raw: string) => L | null;
  /** The label of a text with no letter or digit (nothing to send), or null to send it anyway. */
  empty: L | null;
}

const TASK_SPEC: LabelSpec<TaskLabel> = {
  get promptVersion() {
    return LLM_PROMPT_VERSION;
  },
  system: `${CLASSIFIER_INSTRUCTION}\n\nTaxonomy (label: definition):\n${taxonomyText()}\n\nAnswer with JSON: {"task_type": "<label>"}.`,
  field: "task_type",
  labels: TASK_LABELS,
  normalise: normaliseLabel,
  empty: "greeting",
};

export function buildLabelRequest<L extends string>(
  spec: LabelSpec<L>,
  model: string,
  text: string,
  structured: boolean,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    temperature: 0,
    messages: [
      { role: "system", content: spec.system },
      { role: "user", content: text },
    ],
  };
  const schema = {
    type: "object",
    properties: { [spec.field]: { type: "string", enum: [...spec.labels] } },
    required: [spec.field],
    additionalProperties: false,
  };
  if (structured)
    body.response_format = { type: "json_schema", json_schema: { name: spec.field, strict: true, schema } };
  return body;
}

export function cacheKey(model: string, text: string, promptVersion: string = LLM_PROMPT_VERSION): string {
  return createHash("sha256").update(`${promptVersion}\n${model}\n${text}`, "utf8").digest("hex");
}

/**
 * Labels each text (null where the endpoint failed after its retries or
 * answered with no label; each such message is a diagnostic).
 */
export function classifyWithLlm(
  texts: readonly string[],
  options: LlmOptions,
  sink: DiagnosticSink,
): Promise<{ labels: (TaskLabel | null)[]; stats: LlmStats }> {
  return classifyWithEndpoint(TASK_SPEC, texts, options, sink);
}

/** classifyWithLlm for any closed label set (the same endpoint, cache, concurrency and retries). */
export async function classifyWithEndpoint<L extends string>(
  spec: LabelSpec<L>,
  texts: readonly string[],
  options: LlmOptions,
  sink: DiagnosticSink,
): Promise<{ labels: (L | null)[]; stats: LlmStats }> {
  const r = resolveLlmOptions(options);
  if (!r.model) throw new Error("no model: give --llm-model or set TASKFLOW_LLM_MODEL");
  const model = r.model;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
  const retries = options.retries ?? 4;
  const backoff = options.backoffMs ?? 500;
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  const maxChars = options.maxChars ?? 12_000;
  const cache = new LabelCache<L>(options.cacheFile ?? null, sink, spec.normalise);
  const stats: LlmStats = {
    messages: texts.length,
    cacheHits: 0,
    requests: 0,
    retries: 0,
    failures: 0,
    fallbackParses: 0,
  };
  let structured = true;

  const keys = texts.map((t) => cacheKey(model, t, spec.promptVersion));
  const labels: (L | null)[] = texts.map(() => null);
  const pending = new Map<string, { text: string; at: number[] }>();
  keys.forEach((k, i) => {
    const hit = cache.get(k);
    if (hit) {
      labels[i] = hit;
      stats.cacheHits++;
    } else if (pending.has(k)) pending.get(k)!.at.push(i);
    else pending.set(k, { text: texts[i], at: [i] });
  });

  const ask = async (key: string, text: string): Promise<L | null> => {
    if (spec.empty !== null && !/[\p{L}\p{N}]/u.test(text)) return spec.empty; // nothing to send
    const content = text.length > maxChars ? text.slice(0, maxChars) : text;
    for (let attempt = 0; ; attempt++) {
      let wait: number | null = null;
      let failure = "";
      try {
        stats.requests++;
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 60_000);
        let res: Response;
        try {
          res = await doFetch(`${r.baseUrl}/chat/completions`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              ...(r.apiKey ? { authorization: `Bearer ${r.apiKey}` } : {}),
            },
            body: JSON.stringify(buildLabelRequest(spec, model, content, structured)),
            signal: controller.signal,
          });
        } finally {
          clearTimeout(timer);
        }
        const body = await res.text();
        if (res.ok) {
          const parsed = parseAnswer(body, spec.field, spec.labels, spec.normalise);
          if (parsed.fallback) stats.fallbackParses++;
          if (parsed.label === null) {
            sink.warn(
              "taskflow-llm-unparseable",
              `message ${key.slice(0, 12)}: the answer names no label (${parsed.reason})`,
            );
            return null;
          }
          cache.put(key, model, parsed.label);
          return parsed.label;
        }
        if (res.status === 400 && structured && /response_format|json_schema|schema/i.test(body)) {
          // The server does not take structured output: ask again without it and parse tolerantly.
          structured = false;
          sink.info(
            "taskflow-llm-no-structured-output",
            `${r.baseUrl} rejected response_format json_schema; asking without it and parsing the answer tolerantly`,
          );
          attempt--;
          continue;
        }
        failure = `HTTP ${res.status}: ${body.slice(0, 200)}`;
        if (res.status === 429 || res.status === 408 || res.status >= 500) {
          const ra = Number(res.headers.get("retry-after"));
          wait =
            Number.isFinite(ra) && ra >= 0 && res.headers.get("retry-after") !== null
              ? ra * 1000
              : backoff * 2 ** attempt;
        }
      } catch (e) {
        failure = e instanceof Error ? e.message : String(e);
        wait = backoff * 2 ** attempt;
      }
      if (wait === null || attempt >= retries) {
        stats.failures++;
        sink.warn(
          "taskflow-llm-failed",
          `message ${key.slice(0, 12)}: no label after ${attempt + 1} attempt(s): ${failure}`,
        );
        return null;
      }
      stats.retries++;
      await sleep(Math.min(wait, maxBackoff));
    }
  };

  const queue = Array.from(pending.entries());
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const [key, { text, at }] = queue[next++];
      const label = await ask(key, text);
      for (const i of at) labels[i] = label;
    }
  };
  const n = Math.max(1, Math.min(options.concurrency ?? 4, queue.length));
  await Promise.all(Array.from({ length: n }, worker));
  cache.flush();
  return { labels, stats };
}
