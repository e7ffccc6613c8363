/**
 * The SWE-chat paper's figures, each with the published value beside ours:
 * one entry per figure or table its data allows, in the paper's order, with
 * the lines `published · here (n)` and its charts. Notebook 06 prints these;
 * the report's "SWE-chat's figures" section shows them when the input holds
 * SWE-chat's labels (`hasSwechatLabels`).
 */
import {
  type Chart,
  formatNumber,
  formatPct,
  modeScale,
  paperBars,
  paperHistogram,
  paperLines,
  type PaperBin,
} from "../charts";
import type { GroupUnitRow, PromptRow, SessionRow, ToolCallRow, UnitRow } from "../model";
import {
  clarificationShare,
  effortByMode,
  entirePercentBySession,
  intentShares,
  lowestVibeShare,
  modeShares,
  percentHistogram,
  personaShares,
  pooledSurvival,
  PUBLISHED,
  pushbackShares,
  replayPercentBySession,
  rollingModes,
  sessionSuccess,
  shareOf,
  type Share,
  toolCategoryShares,
  vibeOverCollaborative,
} from "../tables";

export interface PaperInput {
  units: readonly UnitRow[];
  sessions: readonly SessionRow[];
  tool_calls: readonly ToolCallRow[];
  prompts?: readonly PromptRow[];
  group_units?: readonly GroupUnitRow[];
}

export interface FigureLine {
  what: string;
  published: string;
  here: string;
  n: number;
}

export interface PaperFigure {
  id: string;
  title: string;
  lines: FigureLine[];
  /** Where our number and the paper's differ by design, why (one sentence); null otherwise. */
  note: string | null;
  charts: Chart[];
}

/** The input holds SWE-chat's own labels: a session persona or success score, or a prompt intent or pushback label. */
export function hasSwechatLabels(rows: PaperInput): boolean {
  return (
    rows.sessions.some(
      (s) => s.user_persona || typeof s.session_success === "number" || typeof s.entire_agent_percentage === "number",
    ) || (rows.prompts ?? []).some((p) => p.prompt_intent || p.prompt_pushback)
  );
}

/** "vibe share: published 41 % · here 38.5 % (n = 13)". */
export const figureLine = (l: FigureLine): string =>
  `${l.what}: published ${l.published} · here ${l.here} (n = ${l.n})`;

/** A published value as the paper prints it: whole numbers as such ("41 %"), others with one decimal; `digits` where it prints "19.0 %". */
const pub = (v: number | null, digits: number | null = null) =>
  v === null ? "–" : `${v.toFixed(digits ?? (Number.isInteger(v) ? 0 : 1))} %`;
const line = (what: string, published: string, here: string, n: number): FigureLine => ({ what, published, here, n });
const times = (v: number | null) => (v === null ? "–" : `${v.toFixed(2)}×`);

export function swechatPaperFigures(rows: PaperInput): PaperFigure[] {
  const prompts = rows.prompts ?? [];
  const entire = entirePercentBySession(rows.sessions);
  const replay = replayPercentBySession(rows.units);
  return [
    modesFigure(entire, replay),
    survivalFigure(rows),
    effortFigure(rows, replay, entire),
    rollingFigure(rows.sessions, entire.size > 0 ? entire : replay, entire.size > 0),
    toolsFigure(rows.tool_calls),
    intentsFigure(prompts),
    pushbackFigure(prompts),
    clarificationFigure(prompts),
    personasFigure(rows.sessions, entire.size > 0 ? entire : replay),
    successFigure(rows.sessions),
  ];
}

function modesFigure(entire: ReadonlyMap<string, number>, replay: ReadonlyMap<string, number>): PaperFigure {
  const e = modeShares(entire);
  const r = modeShares(replay);
  const publishedOf: Record<string, number> = {
    vibe: PUBLISHED.vibeShare.value,
    "human-only": PUBLISHED.humanOnlyShare.value,
  };
  const bars = [
    ...e.rows.map((x) => ({ ...x, series: "Entire's %", n: e.n })),
    ...r.rows.map((x) => ({ ...x, series: "our replay", n: r.n })),
  ].map((x) => ({ label: x.label, value: x.share, series: x.series, n: x.n, published: publishedOf[x.label] ?? null }));
  const bins = (series: string, values: Iterable<number>): PaperBin[] =>
    percentHistogram(values, 10).map((b) => ({ series, ...b }));
  return {
    id: "modes",
    title: "Coding modes by session and the agent-authored histogram (abstract; Fig. 5)",
    lines: [
      line(
        "vibe sessions (≥ 99 % agent), Entire's %",
        pub(PUBLISHED.vibeShare.value),
        formatPct(shareOf(e, "vibe")),
        e.n,
      ),
      line(
        "human-only sessions (0 %), Entire's %",
        pub(PUBLISHED.humanOnlyShare.value),
        formatPct(shareOf(e, "human-only")),
        e.n,
      ),
      line("vibe sessions, our replay", pub(PUBLISHED.vibeShare.value), formatPct(shareOf(r, "vibe")), r.n),
      line(
        "human-only sessions, our replay",
        pub(PUBLISHED.humanOnlyShare.value),
        formatPct(shareOf(r, "human-only")),
        r.n,
      ),
    ],
    note: "Entire's agent_percentage compares snapshots at commit time, while our replay follows each agent edit into the commit and counts only unambiguous units, so the two differ by design.",
    charts: [
      paperBars(bars, {
        name: "swechat-modes",
        title: "Sessions by coding mode",
        caption:
          "Share of sessions per coding mode (0 % human-only, ≥ 99 % vibe) from Entire's agent_percentage and from our replay; ticks: the paper's abstract (v1).",
        valueTitle: "sessions (%)",
        domain: [0, 100],
      }),
      paperHistogram([...bins("Entire's agent_percentage", entire.values()), ...bins("our replay", replay.values())], {
        name: "swechat-agent-histogram",
        title: "Agent-authored % per session (Fig. 5)",
        caption:
          "Sessions per 10-point bin of agent-authored lines, as Entire recorded them and as our replay of the same sessions finds them (unambiguous units pooled per session).",
        xTitle: "agent-authored lines (%)",
        yTitle: "sessions",
      }),
    ],
  };
}

function survivalFigure(rows: PaperInput): PaperFigure {
  const strict = pooledSurvival(rows.units);
  const groups = rows.group_units && rows.group_units.length > 0 ? pooledSurvival(rows.group_units) : null;
  const lines = [line("code survival, strict units", pub(PUBLISHED.survival.value), formatPct(strict.value), strict.n)];
  lines.push(
    line(
      "code survival, with groups",
      pub(PUBLISHED.survival.value),
      groups ? formatPct(groups.value) : "– (no group rows for this input)",
      groups?.n ?? 0,
    ),
  );
  const bars = [{ label: "strict units", value: strict.value, n: strict.n, published: PUBLISHED.survival.value }];
  if (groups)
    bars.push({ label: "with groups", value: groups.value, n: groups.n, published: PUBLISHED.survival.value });
  return {
    id: "survival",
    title: "Code survival (Table 3)",
    lines,
    note: "The paper does not publish its survival formula; ours pools agent lines surviving into the commit over agent lines in the final state, on unambiguous units only (strict) or on attributable groups of sessions and commits.",
    charts: [
      paperBars(bars, {
        name: "swechat-survival",
        title: "Code survival",
        caption:
          "Σ agent lines surviving / Σ agent lines in the final state, strict units and (when the input has them) groups; tick: the paper's 44.3 %.",
        valueTitle: "survival (%)",
        domain: [0, 100],
      }),
    ],
  };
}

function effortFigure(
  rows: PaperInput,
  replay: ReadonlyMap<string, number>,
  entire: ReadonlyMap<string, number>,
): PaperFigure {
  const effort = effortByMode(rows.units, rows.sessions, replay);
  const n = effort.reduce((s, e) => s + e.sessions, 0);
  const tokens = vibeOverCollaborative(effort, "tokens_per_line");
  const dollars = vibeOverCollaborative(effort, "dollars_per_line");
  // The paper's modes are Entire's: the same ratios with each session's mode from its agent_percentage.
  const byEntire = effortByMode(rows.units, rows.sessions, entire);
  const nEntire = byEntire.reduce((s, e) => s + e.sessions, 0);
  const bars = (key: "tokens_per_line" | "dollars_per_line") =>
    effort.map((e) => ({ label: e.mode, value: e[key], n: e.sessions }));
  return {
    id: "effort",
    title: "Tokens and dollars per committed line by mode (Figs. 7 and 29)",
    lines: [
      line(
        "vibe ÷ collaborative, tokens per line",
        `about ${PUBLISHED.vibeOverCollaborativeEffort.value}×`,
        times(tokens),
        n,
      ),
      line(
        "vibe ÷ collaborative, dollars per line",
        `about ${PUBLISHED.vibeOverCollaborativeEffort.value}×`,
        times(dollars),
        n,
      ),
      line(
        "vibe ÷ collaborative, tokens per line, Entire's modes",
        `about ${PUBLISHED.vibeOverCollaborativeEffort.value}×`,
        times(vibeOverCollaborative(byEntire, "tokens_per_line")),
        nEntire,
      ),
      line(
        "vibe ÷ collaborative, dollars per line, Entire's modes",
        `about ${PUBLISHED.vibeOverCollaborativeEffort.value}×`,
        times(vibeOverCollaborative(byEntire, "dollars_per_line")),
        nEntire,
      ),
      ...effort.map((e) =>
        line(
          `${e.mode}: tokens | dollars per line`,
          "–",
          `${formatNumber(e.tokens_per_line)} | ${formatNumber(e.dollars_per_line)}`,
          e.sessions,
        ),
      ),
    ],
    note: "Modes come from our replay (and, in the two lines marked so, from Entire's agent_percentage), lines from our unambiguous units and dollars from our own price table over recounted tokens; the paper's price table and its committed-line count are not published.",
    charts: [
      paperBars(bars("tokens_per_line"), {
        name: "swechat-tokens-per-line",
        title: "Tokens per committed line by mode",
        caption:
          "Σ tokens (input, output, cache write and read) of a mode's sessions over Σ lines their unambiguous units commit; mode from our replay.",
        valueTitle: "tokens per line",
      }),
      paperBars(bars("dollars_per_line"), {
        name: "swechat-dollars-per-line",
        title: "Dollars per committed line by mode",
        caption: "Σ cost of a mode's sessions (our price table) over Σ committed lines of their unambiguous units.",
        valueTitle: "USD per line",
      }),
    ],
  };
}

function rollingFigure(
  sessions: readonly SessionRow[],
  percents: ReadonlyMap<string, number>,
  fromEntire: boolean,
): PaperFigure {
  const dated = sessions.flatMap((s) =>
    s.started_at && percents.has(s.session_id) ? [{ at: s.started_at, pct: percents.get(s.session_id)! }] : [],
  );
  const points = rollingModes(dated, 14);
  const last = points[points.length - 1] ?? null;
  const februaries = [...new Set(points.map((p) => p.day.slice(0, 7)).filter((m) => m.endsWith("-02")))];
  const low = februaries.length > 0 ? lowestVibeShare(points, februaries[februaries.length - 1]) : null;
  const source = fromEntire ? "Entire's agent_percentage" : "our replay";
  return {
    id: "rolling",
    title: "The 14-day rolling vibe share and agent % (Fig. 25)",
    lines: [
      line(
        "lowest rolling vibe share in February",
        pub(PUBLISHED.rollingVibeFebruaryLow.value),
        low ? `${formatPct(low.vibe_share)} on ${low.day}` : "– (no February in the data)",
        low?.sessions ?? 0,
      ),
      line(
        `rolling vibe share on the last day`,
        `${pub(PUBLISHED.rollingVibeLast.value)} on ${PUBLISHED.rollingVibeLast.day}`,
        last ? `${formatPct(last.vibe_share)} on ${last.day}` : "–",
        last?.sessions ?? 0,
      ),
    ],
    note: `A session counts on the UTC day of its first transcript record (SWE-chat uses Entire's created_at, the same moment up to the hooks' delay), its mode from ${source}.`,
    charts: [
      paperLines(
        points.flatMap((p) => [
          { day: p.day, series: "vibe", value: p.vibe_share },
          { day: p.day, series: "human-only", value: p.human_only_share },
        ]),
        {
          name: "swechat-rolling-modes",
          title: "Coding modes, 14-day rolling share",
          caption: `Share of the sessions of the 14 days ending each day that are vibe (≥ 99 %) or human-only (0 %), from ${source}; a diamond marks the paper's Fig. 25 value (52.6 % vibe on 2026-09-04) when the data reaches that day.`,
          yTitle: "sessions in window (%)",
          domain: [0, 100],
          colors: modeScale,
          published: [
            {
              day: PUBLISHED.rollingVibeLast.day,
              value: PUBLISHED.rollingVibeLast.value,
              label: "vibe, last day (v2)",
            },
          ],
        },
      ),
      paperLines(
        points.flatMap((p) => [
          { day: p.day, series: "mean", value: p.mean_pct },
          { day: p.day, series: "median", value: p.median_pct },
        ]),
        {
          name: "swechat-rolling-agent-pct",
          title: "Agent %, 14-day rolling mean and median",
          caption: `Mean and median agent-authored % of the sessions in each 14-day window, from ${source}.`,
          yTitle: "agent-authored (%)",
          domain: [0, 100],
        },
      ),
    ],
  };
}

function sharesBars(s: { n: number; rows: Share[] }, published: Record<string, number> = {}) {
  return s.rows.map((r) => ({ label: r.label, value: r.share, n: r.count, published: published[r.label] ?? null }));
}

function toolsFigure(calls: readonly ToolCallRow[]): PaperFigure {
  const s = toolCategoryShares(calls);
  const published = PUBLISHED.toolCategories.value;
  return {
    id: "tools",
    title: "Tool calls by category (Table 5)",
    // Table 5 prints every share with one decimal.
    lines: s.rows.map((r) => line(r.label, pub(published[r.label] ?? null, 1), formatPct(r.share), s.n)),
    note: null,
    charts: [
      paperBars(sharesBars(s, published), {
        name: "swechat-tool-categories",
        title: "Tool calls by category",
        caption:
          "Share of tool calls per category by swe-chat.md §6's rules (shell commands by their first word); ticks: the paper's Table 5 (v2, nimbus excluded).",
        valueTitle: "calls (%)",
      }),
    ],
  };
}

function intentsFigure(prompts: readonly PromptRow[]): PaperFigure {
  const s = intentShares(prompts);
  return {
    id: "intents",
    title: "Prompt intents (Fig. 19a)",
    lines: s.rows.map((r) =>
      line(
        `"${r.label}"`,
        r.label === "understand" ? pub(PUBLISHED.understandShare.value, 1) : "–",
        formatPct(r.share),
        s.n,
      ),
    ),
    note: null,
    charts: [
      paperBars(sharesBars(s, { understand: PUBLISHED.understandShare.value }), {
        name: "swechat-intents",
        title: "Prompt intents",
        caption:
          "Share of prompts per intent, as the dataset's prompt_intent labels them; tick: the published 19.0 % for understand.",
        valueTitle: "prompts (%)",
      }),
    ],
  };
}

function pushbackFigure(prompts: readonly PromptRow[]): PaperFigure {
  const dataset = pushbackShares(prompts, "dataset");
  const rules = pushbackShares(prompts, "rules");
  const bars = [
    ...dataset.kinds.map((k) => ({
      label: k.label,
      value: dataset.n > 0 ? k.share : null,
      series: "dataset's labels",
      n: k.count,
    })),
    ...rules.kinds.map((k) => ({ label: k.label, value: k.share, series: "our rules", n: k.count })),
  ];
  return {
    id: "pushback",
    title: "Pushback",
    lines: [
      line(
        "prompts that push back, dataset's labels",
        pub(PUBLISHED.pushbackShare.value),
        formatPct(dataset.pushback),
        dataset.n,
      ),
      line("prompts that push back, our rules", pub(PUBLISHED.pushbackShare.value), formatPct(rules.pushback), rules.n),
    ],
    note: "Our rules are a transparent baseline over the prompt's opening (src/signals), not the paper's LLM; their agreement with the dataset's labels is in the README.",
    charts: [
      paperBars(bars, {
        name: "swechat-pushback",
        title: "Pushback by kind",
        caption: "Share of prompts per pushback kind, from the dataset's prompt_pushback and from our rules.",
        valueTitle: "prompts (%)",
      }),
    ],
  };
}

function clarificationFigure(prompts: readonly PromptRow[]): PaperFigure {
  const c = clarificationShare(prompts);
  return {
    id: "clarification",
    title: "Agent clarification requests",
    lines: [
      line(
        "agent replies that ask for clarification",
        pub(PUBLISHED.clarificationShare.value),
        formatPct(c.share),
        c.n,
      ),
    ],
    note: "The release has no clarification label; ours is an AskUserQuestion call or a request for input in the reply's last paragraph (src/signals).",
    charts: [
      paperBars(
        [
          {
            label: "asks for clarification",
            value: c.share,
            n: c.count,
            published: PUBLISHED.clarificationShare.value,
          },
        ],
        {
          name: "swechat-clarification",
          title: "Agent clarification requests",
          caption:
            "Share of prompts whose agent reply asks the user for clarification (rules); tick: the paper's 1.4 %.",
          valueTitle: "replies (%)",
        },
      ),
    ],
  };
}

function personasFigure(sessions: readonly SessionRow[], percents: ReadonlyMap<string, number>): PaperFigure {
  const all = personaShares(sessions);
  const vibe = personaShares(sessions, (s) => (percents.get(s.session_id) ?? -1) >= 99);
  const bars = [
    ...all.rows.map((r) => ({ label: r.label, value: r.share, series: "all sessions", n: r.count })),
    ...vibe.rows.map((r) => ({
      label: r.label,
      value: r.share,
      series: "vibe sessions",
      n: r.count,
      published: r.label === "Expert Nitpicker" ? PUBLISHED.nitpickersAmongVibe.value : null,
    })),
  ];
  return {
    id: "personas",
    title: "Personas (Fig. 24)",
    lines: [
      line(
        "expert nitpickers among vibe sessions",
        pub(PUBLISHED.nitpickersAmongVibe.value),
        formatPct(shareOf(vibe, "Expert Nitpicker")),
        vibe.n,
      ),
      ...all.rows.map((r) => line(`${r.label}, all sessions`, "–", formatPct(r.share), all.n)),
    ],
    note: "The paper counts vibe-coding users; the tables have no user id we read, so we count vibe sessions.",
    charts: [
      paperBars(bars, {
        name: "swechat-personas",
        title: "Personas",
        caption:
          "Share of sessions per user_persona, over all sessions and over vibe sessions (≥ 99 % agent); tick: the published 47 % nitpickers.",
        valueTitle: "sessions (%)",
        domain: [0, 100],
      }),
    ],
  };
}

function successFigure(sessions: readonly SessionRow[]): PaperFigure {
  const s = sessionSuccess(sessions);
  return {
    id: "success",
    title: "Session success (Fig. 6)",
    lines: [
      line("sessions with session_success ≥ 50", pub(PUBLISHED.successAtLeast50.value), formatPct(s.atLeast50), s.n),
    ],
    note: null,
    charts: [
      paperHistogram(
        s.bins.map((b) => ({ series: "session_success", ...b })),
        {
          name: "swechat-success",
          title: "Session success",
          caption: "Sessions per 10-point bin of the dataset's session_success score.",
          xTitle: "session_success",
          yTitle: "sessions",
        },
      ),
    ],
  };
}

/** What the report's "SWE-chat's figures" partial shows, and the charts to embed and render; empty when the input holds no SWE-chat label. */
export function swechatSection(rows: PaperInput): {
  model: {
    id: string;
    title: string;
    lines: string[];
    note: string | null;
    charts: { name: string; title: string; caption: string }[];
  }[];
  charts: Chart[];
} {
  if (!hasSwechatLabels(rows)) return { model: [], charts: [] };
  const figures = swechatPaperFigures(rows);
  return {
    model: figures.map((f) => ({
      id: f.id,
      title: f.title,
      lines: f.lines.map(figureLine),
      note: f.note,
      charts: f.charts.map((c) => ({ name: c.name, title: c.title, caption: c.caption })),
    })),
    charts: figures.flatMap((f) => f.charts),
  };
}
