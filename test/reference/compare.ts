/**
 * Joins the reference's units with the product's `units` table and counts agreement per column.
 * Shared by scripts/verify-reference.ts and agree.test.ts.
 */
import { readFileSync } from "node:fs";
import { normaliseSessionId } from "./checkpoints";
import { ENTIRE_COLUMNS } from "./entire-attribution";
import { DERIVED_COLUMNS, IDENTITY_COLUMNS, NUMBER_COLUMNS, type ReferenceUnit } from "./reference";
import type { ReferenceSession } from "./sessions";

export const COMPARED_COLUMNS = [
  "checkpoint_id",
  ...IDENTITY_COLUMNS,
  "ambiguity",
  ...NUMBER_COLUMNS,
  ...DERIVED_COLUMNS,
  ...ENTIRE_COLUMNS,
] as const;
export type ComparedColumn = (typeof COMPARED_COLUMNS)[number];

export type ProductUnit = Record<string, unknown>;

const NUMERIC = new Set<string>([
  ...NUMBER_COLUMNS,
  "numstat_additions",
  "code_survival_rate",
  "coding_efficiency",
  "agent_authored_pct",
  "input_tokens",
  "output_tokens",
  "cache_creation_tokens",
  "cache_read_tokens",
  "api_calls",
  "duration_s",
  "active_s",
  "prompts",
  "cost_usd",
  ...ENTIRE_COLUMNS,
  "tool_calls",
  "edit_calls",
  "failed_edit_calls",
]);

/** RFC 4180 CSV → objects; empty cells are null, the count columns numbers (the product writes nulls as empty). */
export function parseCsv(text: string): ProductUnit[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  const [header, ...body] = rows.filter((r) => r.length > 1 || r[0] !== "");
  return body.map((r) =>
    Object.fromEntries(
      header.map((h, i) => {
        const v = r[i] ?? "";
        // Only the count columns are numbers: ids such as checkpoint "1234567e8901" must stay text.
        return [h, v === "" ? null : NUMERIC.has(h) ? Number(v) : v];
      }),
    ),
  );
}

export function readProductUnits(path: string): ProductUnit[] {
  const text = readFileSync(path, "utf8");
  return path.endsWith(".csv") ? parseCsv(text) : (JSON.parse(text) as ProductUnit[]);
}

export interface UnitDiff {
  key: string;
  column: ComparedColumn;
  reference: unknown;
  product: unknown;
}

export interface Comparison {
  referenceUnits: number;
  productUnits: number;
  onlyReference: string[];
  onlyProduct: string[];
  perColumn: Record<ComparedColumn, { agree: number; disagree: number }>;
  diffs: UnitDiff[];
}

/** Join key: (session_id, commit_sha), session ids normalised (metrics.md §1); a third part only if a pair repeats. */
function keyed<T>(
  rows: T[],
  session: (r: T) => string,
  commit: (r: T) => string,
  checkpoint: (r: T) => string,
): Map<string, T> {
  const count = new Map<string, number>();
  for (const r of rows) {
    const k = `${normaliseSessionId(session(r))} ${commit(r)}`;
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  const out = new Map<string, T>();
  for (const r of rows) {
    const k = `${normaliseSessionId(session(r))} ${commit(r)}`;
    out.set(count.get(k)! > 1 ? `${k} ${checkpoint(r)}` : k, r);
  }
  return out;
}

/**
 * Equality for the comparison. Counts and labels must be identical. Rates, seconds and dollars are
 * doubles that the product writes unrounded (units.json / sessions.json hold full doubles) but that
 * either side may reach by another order of operations (Σ of per-call dollars, (a − b)/1000 versus
 * a/1000 − b/1000): they agree when they differ by at most 1e-9 absolute or 1e-12 relative.
 * An empty text is null: the CSV writes both as an empty cell (e.g. `models` of a one-model session).
 */
export function same(a: unknown, b: unknown): boolean {
  const x = a === "" ? null : (a ?? null);
  const y = b === "" ? null : (b ?? null);
  if (typeof x === "number" && typeof y === "number" && !(Number.isInteger(x) && Number.isInteger(y))) {
    return Math.abs(x - y) <= Math.max(1e-9, 1e-12 * Math.max(Math.abs(x), Math.abs(y)));
  }
  return x === y;
}

/** Agreement of two keyed row sets, column by column (units and sessions alike). */
interface Joined<C extends string> {
  reference: number;
  product: number;
  onlyReference: string[];
  onlyProduct: string[];
  perColumn: Record<C, { agree: number; disagree: number }>;
  diffs: { key: string; column: C; reference: unknown; product: unknown }[];
}

function compareJoined<C extends string>(
  ref: Map<string, object>,
  prod: Map<string, object>,
  columns: readonly C[],
): Joined<C> {
  const perColumn = Object.fromEntries(columns.map((c) => [c, { agree: 0, disagree: 0 }])) as Joined<C>["perColumn"];
  const diffs: Joined<C>["diffs"] = [];
  for (const [key, r] of [...ref].sort()) {
    const p = prod.get(key);
    if (!p) continue;
    for (const column of columns) {
      const a = (r as Record<string, unknown>)[column];
      const b = (p as Record<string, unknown>)[column];
      if (same(a, b)) perColumn[column].agree += 1;
      else {
        perColumn[column].disagree += 1;
        diffs.push({ key, column, reference: a ?? null, product: b ?? null });
      }
    }
  }
  return {
    reference: ref.size,
    product: prod.size,
    onlyReference: [...ref.keys()].filter((k) => !prod.has(k)).sort(),
    onlyProduct: [...prod.keys()].filter((k) => !ref.has(k)).sort(),
    perColumn,
    diffs,
  };
}

function formatJoined<C extends string>(
  what: "units" | "sessions",
  unit: string,
  c: Joined<C>,
  columns: readonly C[],
): string {
  const out: string[] = [];
  out.push(`${what}: reference ${c.reference}, product ${c.product}, joined ${c.reference - c.onlyReference.length}`);
  out.push(`only in reference: ${c.onlyReference.length}`);
  for (const k of c.onlyReference) out.push(`  ${k}`);
  out.push(`only in product: ${c.onlyProduct.length}`);
  for (const k of c.onlyProduct) out.push(`  ${k}`);
  out.push("per column (agree / disagree):");
  for (const col of columns)
    out.push(`  ${col.padEnd(24)} ${String(c.perColumn[col].agree).padStart(5)} / ${c.perColumn[col].disagree}`);
  if (c.diffs.length > 0) {
    out.push(`disagreements (${unit}  column  reference  product):`);
    for (const d of c.diffs)
      out.push(`  ${d.key}  ${d.column}  ${JSON.stringify(d.reference)}  ${JSON.stringify(d.product)}`);
  }
  return out.join("\n");
}

export function compareUnits(reference: ReferenceUnit[], product: ProductUnit[]): Comparison {
  const ref = keyed(
    reference,
    (r) => r.session_id,
    (r) => r.commit_sha,
    (r) => r.checkpoint_id,
  );
  const prod = keyed(
    product,
    (r) => String(r.session_id ?? ""),
    (r) => String(r.commit_sha ?? ""),
    (r) => String(r.checkpoint_id ?? ""),
  );
  const { reference: referenceUnits, product: productUnits, ...rest } = compareJoined(ref, prod, COMPARED_COLUMNS);
  return { referenceUnits, productUnits, ...rest };
}

/** Every row joined and every compared column equal (units or sessions). */
function joinedAgree(c: {
  diffs: readonly unknown[];
  onlyProduct: readonly string[];
  onlyReference: readonly string[];
}): boolean {
  return c.diffs.length === 0 && c.onlyProduct.length === 0 && c.onlyReference.length === 0;
}

export function agrees(c: Comparison): boolean {
  return joinedAgree(c);
}

/** The report the script prints. */
export function formatComparison(c: Comparison): string {
  return formatJoined(
    "units",
    "unit",
    { ...c, reference: c.referenceUnits, product: c.productUnits },
    COMPARED_COLUMNS,
  );
}

// ---------------------------------------------------------------- sessions (metrics.md §5)

export const SESSION_COLUMNS = [
  "agent",
  "model",
  "models",
  "started_at",
  "ended_at",
  "tool_calls",
  "edit_calls",
  "failed_edit_calls",
  "input_tokens",
  "output_tokens",
  "cache_creation_tokens",
  "cache_read_tokens",
  "api_calls",
  "duration_s",
  "active_s",
  "prompts",
  "length_bin",
  "cost_usd",
] as const;
export type SessionColumn = (typeof SESSION_COLUMNS)[number];

export type SessionComparison = Omit<Joined<SessionColumn>, "reference" | "product"> & {
  referenceSessions: number;
  productSessions: number;
};

/**
 * Joins on the normalised session_id. The reference only reads Claude Code, Codex, Gemini CLI and Pi transcripts:
 * its sessions of another (or no readable) format are left out, and so are the product's rows for
 * them; product rows from another input (e.g. a Claude projects folder given beside the
 * repository) are listed as only-product.
 */
export function compareSessions(reference: ReferenceSession[], product: ProductUnit[]): SessionComparison {
  const readable = reference.filter(
    (r) => r.format === "claude-code" || r.format === "codex" || r.format === "gemini" || r.format === "pi",
  );
  const skipped = new Set(reference.filter((r) => !readable.includes(r)).map((r) => normaliseSessionId(r.session_id)));
  const ref = new Map(readable.map((r) => [normaliseSessionId(r.session_id), r]));
  const prod = new Map(
    product.map((p) => [normaliseSessionId(String(p.session_id ?? "")), p] as const).filter(([k]) => !skipped.has(k)),
  );
  const { reference: referenceSessions, product: productSessions, ...rest } = compareJoined(ref, prod, SESSION_COLUMNS);
  return { referenceSessions, productSessions, ...rest };
}

export function sessionsAgree(c: SessionComparison): boolean {
  return joinedAgree(c);
}

export function formatSessionComparison(c: SessionComparison): string {
  return formatJoined(
    "sessions",
    "session",
    { ...c, reference: c.referenceSessions, product: c.productSessions },
    SESSION_COLUMNS,
  );
}
