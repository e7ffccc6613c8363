/**
 * Joins the reference's units with the product's `units` table and counts agreement per column.
 * Shared by scripts/verify-reference.ts and agree.test.ts.
 */
import { readFileSync } from "node:fs";
import { normaliseSessionId } from "./checkpoints";
import { NUMBER_COLUMNS, type ReferenceUnit } from "./reference";

export const COMPARED_COLUMNS = ["checkpoint_id", "ambiguity", ...NUMBER_COLUMNS] as const;
export type ComparedColumn = (typeof COMPARED_COLUMNS)[number];

export type ProductUnit = Record<string, unknown>;

/** RFC 4180 CSV → objects; empty cells are null, the count columns numbers (the product writes nulls as empty). */
export function parseCsv(text: string): ProductUnit[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") { row.push(cell); cell = ""; }
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(cell); rows.push(row); row = []; cell = "";
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) { row.push(cell); rows.push(row); }
  const [header, ...body] = rows.filter((r) => r.length > 1 || r[0] !== "");
  return body.map((r) => Object.fromEntries(header.map((h, i) => {
    const v = r[i] ?? "";
    // Only the count columns are numbers: ids such as checkpoint "1234567e8901" must stay text.
    return [h, v === "" ? null : (NUMBER_COLUMNS as readonly string[]).includes(h) ? Number(v) : v];
  })));
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
function keyed<T>(rows: T[], session: (r: T) => string, commit: (r: T) => string, checkpoint: (r: T) => string): Map<string, T> {
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

const same = (a: unknown, b: unknown): boolean => (a ?? null) === (b ?? null);

export function compareUnits(reference: ReferenceUnit[], product: ProductUnit[]): Comparison {
  const ref = keyed(reference, (r) => r.session_id, (r) => r.commit_sha, (r) => r.checkpoint_id);
  const prod = keyed(product, (r) => String(r.session_id ?? ""), (r) => String(r.commit_sha ?? ""), (r) => String(r.checkpoint_id ?? ""));
  const perColumn = Object.fromEntries(COMPARED_COLUMNS.map((c) => [c, { agree: 0, disagree: 0 }])) as Comparison["perColumn"];
  const diffs: UnitDiff[] = [];
  for (const [key, r] of [...ref].sort()) {
    const p = prod.get(key);
    if (!p) continue;
    for (const column of COMPARED_COLUMNS) {
      const a = (r as Record<string, unknown>)[column];
      const b = p[column];
      if (same(a, b)) perColumn[column].agree += 1;
      else {
        perColumn[column].disagree += 1;
        diffs.push({ key, column, reference: a ?? null, product: b ?? null });
      }
    }
  }
  return {
    referenceUnits: ref.size,
    productUnits: prod.size,
    onlyReference: [...ref.keys()].filter((k) => !prod.has(k)).sort(),
    onlyProduct: [...prod.keys()].filter((k) => !ref.has(k)).sort(),
    perColumn,
    diffs,
  };
}

export function agrees(c: Comparison): boolean {
  return c.diffs.length === 0 && c.onlyProduct.length === 0 && c.onlyReference.length === 0;
}

/** The report the script prints. */
export function formatComparison(c: Comparison): string {
  const out: string[] = [];
  out.push(`units: reference ${c.referenceUnits}, product ${c.productUnits}, joined ${c.referenceUnits - c.onlyReference.length}`);
  out.push(`only in reference: ${c.onlyReference.length}`);
  for (const k of c.onlyReference) out.push(`  ${k}`);
  out.push(`only in product: ${c.onlyProduct.length}`);
  for (const k of c.onlyProduct) out.push(`  ${k}`);
  out.push("per column (agree / disagree):");
  for (const col of COMPARED_COLUMNS) out.push(`  ${col.padEnd(24)} ${String(c.perColumn[col].agree).padStart(5)} / ${c.perColumn[col].disagree}`);
  if (c.diffs.length > 0) {
    out.push("disagreements (unit  column  reference  product):");
    for (const d of c.diffs) out.push(`  ${d.key}  ${d.column}  ${JSON.stringify(d.reference)}  ${JSON.stringify(d.product)}`);
  }
  return out.join("\n");
}
