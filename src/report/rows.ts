import type { PromptRow, SecretsPolicy, UnitFileRow } from "../model";
import type { AnalysisRows } from "../tables";

export type { PromptRow, UnitFileRow };
import { makeReportMasker } from "./bounded-text";

/** What the report reads: the analysis tables, plus two optional tables the session pages use when present. */
export type ReportRows = AnalysisRows & { prompts?: PromptRow[]; unit_files?: UnitFileRow[] };

/**
 * A copy of the rows with every displayed name and free text cut at
 * `REPORT_TEXT_CAP` and passed through `maskSecrets` unless secrets are kept
 * (models, repositories, branches, tools, files, messages, prompts). Ids that join tables (session, commit, checkpoint) are kept as
 * they are here and masked where they are displayed, so joins still hold.
 */
export function maskRows(rows: ReportRows, secrets: SecretsPolicy = "masked"): ReportRows {
  const m = makeReportMasker(secrets);
  const s = (v: string | null): string | null => (v === null || v === undefined ? null : m(v));
  // Rows are copied only when a field changes: almost none do, and a corpus has hundreds of thousands of tool calls.
  const keepOr = <T extends object>(row: T, masked: Partial<T>): T => {
    for (const key of Object.keys(masked) as (keyof T)[]) if (masked[key] !== row[key]) return { ...row, ...masked };
    return row;
  };
  return {
    units: rows.units.map((u) =>
      keepOr(u, { repo: m(u.repo), agent: s(u.agent), model: s(u.model), ambiguity: u.ambiguity }),
    ),
    sessions: rows.sessions.map((r) =>
      keepOr(r, {
        agent: s(r.agent),
        model: s(r.model),
        models: m(r.models),
        repo: s(r.repo),
        branch: s(r.branch),
        source: m(r.source),
        started_at: s(r.started_at),
        ended_at: s(r.ended_at),
      }),
    ),
    tool_calls: rows.tool_calls.map((c) =>
      keepOr(c, { tool: m(c.tool), category: m(c.category), file: s(c.file), timestamp: s(c.timestamp) }),
    ),
    diagnostics: rows.diagnostics.map((d) =>
      keepOr(d, { source: m(d.source), file: s(d.file), code: m(d.code), message: m(d.message) }),
    ),
    ...(rows.group_units
      ? {
          group_units: rows.group_units.map((u) =>
            keepOr(u, { repo: m(u.repo), agent: s(u.agent), model: s(u.model) }),
          ),
        }
      : {}),
    ...(rows.checkpoint_sessions ? { checkpoint_sessions: rows.checkpoint_sessions } : {}),
    ...(rows.prompts
      ? { prompts: rows.prompts.map((p) => keepOr(p, { text: m(p.text), timestamp: s(p.timestamp) })) }
      : {}),
    ...(rows.line_ranges ? { line_ranges: rows.line_ranges } : {}),
    ...(rows.unit_files ? { unit_files: rows.unit_files.map((f) => keepOr(f, { path: m(f.path) })) } : {}),
  };
}
