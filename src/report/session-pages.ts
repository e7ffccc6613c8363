import { createHash } from "node:crypto";
import { formatCount, formatNumber, formatPct } from "../charts";
import type { SecretsPolicy, SessionRow, ToolCallRow, UnitRow } from "../model";
import { isHeadlineUnit } from "../tables";
import { BLAME_LINE_LIMIT, type BlameContext, blameUnits, groupExplanations } from "./blame";
import { cutShown, makeReportMasker } from "./bounded-text";
import { safeFileStem } from "./escape";
import type { Cell } from "./index-page";
import { shorten } from "./method-notes";
import type { CommitInfo, LineTexts } from "./line-text";
import type { PromptRow, ReportRows, UnitFileRow } from "./rows";

export interface SessionLink {
  id: string;
  /** Displayed id (masked), and its first 8 characters for the sessions table (the full id is the link's title). */
  idText: string;
  idShort: string;
  /** The page's file name inside `sessions/`. */
  href: string;
  cells: Cell[];
}

export interface SessionPageLimits {
  /** Prompts shown per page (the rest are counted). Default 500. */
  prompts?: number;
  /** Characters shown per prompt. Default 4000. */
  promptChars?: number;
  /** Timeline rows per page. Default 2000. */
  timeline?: number;
  /** Committed lines shown per unit in the blame view. Default BLAME_LINE_LIMIT (2,000). */
  blameLines?: number;
}

/** What the blame view reads beside the rows: committed files' lines and commit subjects (./line-text.ts). */
export interface LineData {
  texts: LineTexts;
  commits: Map<string, CommitInfo>;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const num = (value: number | null | undefined, text: string): Cell => ({
  text,
  sort: value === null || value === undefined || !Number.isFinite(value) ? "" : String(value),
  num: true,
});

/** Groups rows by session id, keeping each group in input order. */
function bySession<T extends { session_id: string }>(rows: readonly T[] | undefined): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows ?? []) {
    let list = out.get(r.session_id);
    if (!list) out.set(r.session_id, (list = []));
    list.push(r);
  }
  return out;
}

/** File stems for session ids: unique even on case-insensitive file systems, and never `index` (sessions/index.html lists them all). */
export function stemsFor(ids: readonly string[]): Map<string, string> {
  const used = new Set<string>(["index"]);
  const out = new Map<string, string>();
  for (const id of ids) {
    let stem = safeFileStem(id, sha256);
    if (used.has(stem.toLowerCase())) stem = `s-${sha256(id).slice(0, 16)}`;
    for (let k = 2; used.has(stem.toLowerCase()); k++) stem = `s-${sha256(id).slice(0, 16)}-${k}`;
    used.add(stem.toLowerCase());
    out.set(id, stem);
  }
  return out;
}

export interface SessionPages {
  links: SessionLink[];
  /** One page model per session, in link order; `stem` names `sessions/<stem>.html`. */
  pages: () => Iterable<{ stem: string; model: Record<string, unknown> }>;
}

const startKey = (s: SessionRow | undefined) => s?.started_at ?? "\uffff";

/**
 * The per-session table rows and pages. Sessions are ordered by start time,
 * then id; a session that only appears in `units` (its transcript is
 * missing) still gets a page with its units.
 */
export function sessionPages(
  rows: ReportRows,
  limits: SessionPageLimits = {},
  secrets: SecretsPolicy = "masked",
  lineData: LineData = { texts: new Map(), commits: new Map() },
): SessionPages {
  const mask = makeReportMasker(secrets);
  const sessionById = new Map(rows.sessions.map((s) => [s.session_id, s]));
  const unitsBy = bySession(rows.units);
  const callsBy = bySession(rows.tool_calls);
  const ids = [...new Set([...rows.sessions.map((s) => s.session_id), ...rows.units.map((u) => u.session_id)])].sort(
    (a, b) => {
      const ka = startKey(sessionById.get(a));
      const kb = startKey(sessionById.get(b));
      return ka < kb ? -1 : ka > kb ? 1 : a < b ? -1 : a > b ? 1 : 0;
    },
  );
  const stems = stemsFor(ids);
  const links = ids.map((id): SessionLink => {
    const s = sessionById.get(id);
    const units = unitsBy.get(id) ?? [];
    const head = units.filter(isHeadlineUnit);
    const committed = head.reduce((t, u) => t + (u.total_committed_lines ?? 0), 0);
    const survived = head.reduce((t, u) => t + (u.agent_lines_survived ?? 0), 0);
    const final = head.reduce((t, u) => t + (u.agent_lines_final ?? 0), 0);
    const survival = final > 0 ? (100 * survived) / final : null;
    return {
      id,
      idText: mask(id),
      idShort: shorten(mask(id), 12) === mask(id) ? mask(id) : shorten(mask(id), 9),
      href: `${stems.get(id)}.html`,
      cells: [
        { text: s?.started_at ? s.started_at.slice(0, 16).replace("T", " ") : "–" },
        { text: s?.agent ?? units[0]?.agent ?? "–" },
        { text: s?.model ?? units[0]?.model ?? "–" },
        num(s?.prompts, s ? formatCount(s.prompts) : "–"),
        num(s?.tool_calls, s ? formatCount(s.tool_calls) : "–"),
        num(units.length, `${formatCount(head.length)} / ${formatCount(units.length)}`),
        num(committed, formatCount(committed)),
        num(survived, formatCount(survived)),
        num(survival, formatPct(survival)),
        num(s?.cost_usd, s?.cost_usd === null || s?.cost_usd === undefined ? "–" : `$${formatNumber(s.cost_usd)}`),
      ],
    };
  });
  const promptsBy = bySession(rows.prompts);
  const filesBy = bySession(rows.unit_files);
  const groupsBy = bySession(rows.group_units);
  const rangesBy = bySession(rows.line_ranges);
  const groupRows = new Map<string, NonNullable<ReportRows["group_units"]>>();
  for (const g of rows.group_units ?? []) groupRows.set(g.group_id, [...(groupRows.get(g.group_id) ?? []), g]);
  const blame: BlameContext = {
    ...lineData,
    limit: limits.blameLines ?? BLAME_LINE_LIMIT,
    mask,
    hrefOf: (id) => (stems.has(id) ? `${stems.get(id)}.html` : null),
    groupRows,
    commitsOf: new Map([...unitsBy].map(([id, us]) => [id, us.map((u) => u.commit_sha)])),
  };
  return {
    links,
    pages: function* () {
      for (const link of links) {
        const groups = groupsBy.get(link.id) ?? [];
        const ranges = rangesBy.get(link.id) ?? [];
        const base = sessionModel(
          link,
          sessionById.get(link.id),
          unitsBy.get(link.id) ?? [],
          callsBy.get(link.id) ?? [],
          rows.prompts ? (promptsBy.get(link.id) ?? []) : null,
          rows.unit_files ? (filesBy.get(link.id) ?? []) : null,
          limits,
          mask,
        );
        const model = {
          ...base,
          hasLineRanges: rows.line_ranges !== undefined,
          blameLimit: formatCount(blame.limit),
          blame: blameUnits(unitsBy.get(link.id) ?? [], groups, ranges, blame),
          groups: groupExplanations(link.id, groups, ranges, blame),
        };
        yield { stem: stems.get(link.id)!, model };
      }
    },
  };
}

const isEditCall = (c: ToolCallRow) => c.category === "edit" || c.category === "write" || c.lines_added !== null;

function sessionModel(
  link: SessionLink,
  s: SessionRow | undefined,
  units: readonly UnitRow[],
  calls: readonly ToolCallRow[],
  prompts: readonly PromptRow[] | null,
  files: readonly UnitFileRow[] | null,
  { prompts: maxPrompts = 500, promptChars = 4000, timeline: maxTimeline = 2000 }: SessionPageLimits,
  mask: (s: string) => string,
): Record<string, unknown> {
  const edits = calls.filter(isEditCall).sort((a, b) => a.seq - b.seq);
  const perFile = new Map<
    string,
    { edits: number; failed: number; added: number; removed: number; survived: number | null; final: number | null }
  >();
  for (const c of edits) {
    const key = c.file ?? "(no file)";
    const f = perFile.get(key) ?? { edits: 0, failed: 0, added: 0, removed: 0, survived: null, final: null };
    f.edits++;
    if (c.success === false) f.failed++;
    f.added += c.lines_added ?? 0;
    f.removed += c.lines_removed ?? 0;
    perFile.set(key, f);
  }
  const headline = new Set(units.filter(isHeadlineUnit).map((u) => u.commit_sha));
  for (const f of files ?? []) {
    if (!headline.has(f.commit_sha)) continue;
    const r = perFile.get(f.path) ?? { edits: 0, failed: 0, added: 0, removed: 0, survived: null, final: null };
    r.survived = (r.survived ?? 0) + f.agent_lines_survived;
    r.final = (r.final ?? 0) + f.agent_lines_final;
    perFile.set(f.path, r);
  }
  const fact = (label: string, value: string) => ({ label, value });
  return {
    id: link.idText,
    facts: s
      ? [
          fact("source", s.source),
          fact("agent", s.agent ?? "–"),
          fact("model (most output tokens)", s.model ?? "–"),
          fact("all models", s.models || "–"),
          fact("repository", s.repo ?? "–"),
          fact("branch", s.branch ?? "–"),
          fact("started / ended (UTC)", `${s.started_at ?? "–"} / ${s.ended_at ?? "–"}`),
          fact("duration / active", `${formatNumber(s.duration_s)} s / ${formatNumber(s.active_s)} s`),
          fact("prompts (length bin)", `${formatCount(s.prompts)} (${s.length_bin})`),
          fact(
            "tool calls / edit calls / failed edits",
            `${formatCount(s.tool_calls)} / ${formatCount(s.edit_calls)} / ${formatCount(s.failed_edit_calls)}`,
          ),
          fact(
            "tokens in / out / cache write / cache read",
            [s.input_tokens, s.output_tokens, s.cache_creation_tokens, s.cache_read_tokens]
              .map(formatCount)
              .join(" / "),
          ),
          fact("API calls", formatCount(s.api_calls)),
          fact("cost", s.cost_usd === null ? "unknown (unpriced model)" : `$${formatNumber(s.cost_usd)}`),
        ]
      : [fact("transcript", "no session row: the transcript is missing or unreadable")],
    units: units.map((u) => ({
      commit: u.commit_sha.slice(0, 12),
      checkpoint: u.checkpoint_id ? mask(u.checkpoint_id) : "–",
      method: u.method ?? "–",
      status: u.ambiguity ?? "unambiguous",
      cells: [
        u.agent_lines_produced,
        u.agent_lines_final,
        u.agent_lines_survived,
        u.human_lines,
        u.outside_lines,
        u.total_committed_lines,
      ].map((v) => (v === null ? "–" : formatCount(v))),
      rates: [u.code_survival_rate, u.coding_efficiency, u.agent_authored_pct].map((v) => formatPct(v)),
      mode: u.coding_mode ?? "–",
    })),
    files: [...perFile.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([path, f]) => ({
        path,
        edits: formatCount(f.edits),
        failed: formatCount(f.failed),
        added: formatCount(f.added),
        removed: formatCount(f.removed),
        survived: f.survived === null ? "–" : formatCount(f.survived),
        final: f.final === null ? "–" : formatCount(f.final),
      })),
    hasFileSurvival: files !== null,
    timeline: edits.slice(0, maxTimeline).map((c) => ({
      seq: formatCount(c.seq),
      time: c.timestamp ? c.timestamp.replace("T", " ").replace(/\.\d+Z$|Z$/, "") : "–",
      tool: c.tool,
      file: c.file ?? "–",
      outcome: c.success === true ? "ok" : c.success === false ? "failed" : "no result",
      failed: c.success === false,
      added: c.lines_added === null ? "–" : `+${formatCount(c.lines_added)}`,
      removed: c.lines_removed === null ? "–" : `−${formatCount(c.lines_removed)}`,
    })),
    timelineMore: edits.length > maxTimeline ? formatCount(edits.length - maxTimeline) : null,
    hasPrompts: prompts !== null,
    prompts: (prompts ?? []).slice(0, maxPrompts).map((p) => ({
      n: formatCount(p.index + 1),
      time: p.timestamp ? p.timestamp.replace("T", " ").replace(/\.\d+Z$|Z$/, "") : "",
      text: cutShown(p.text, promptChars),
    })),
    promptsMore: prompts && prompts.length > maxPrompts ? formatCount(prompts.length - maxPrompts) : null,
  };
}
