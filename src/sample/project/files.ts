/** The sample project's source files as the scenarios first write them. */
import { L } from "../text";

export const PACKAGE_JSON = L(
  "{",
  '  "name": "sample-app",',
  '  "version": "0.1.0",',
  '  "description": "Small formatting helpers for command-line tools",',
  '  "type": "module",',
  '  "main": "dist/index.js",',
  '  "scripts": {',
  '    "build": "tsc -p .",',
  '    "test": "node --test"',
  "  },",
  '  "devDependencies": {',
  '    "typescript": "^5.7.2"',
  "  }",
  "}",
);

export const TSCONFIG = L(
  "{",
  '  "compilerOptions": {',
  '    "target": "ES2022",',
  '    "module": "NodeNext",',
  '    "outDir": "dist",',
  '    "strict": true',
  "  },",
  '  "include": ["src"]',
  "}",
);

export const GITIGNORE = L("node_modules/", "dist/");

export const README = L(
  "# sample-app",
  "",
  "Small formatting helpers for command-line tools.",
  "",
  "## Install",
  "",
  "    npm install sample-app",
);

export const INDEX_TS = L('export { formatBytes } from "./bytes";', 'export { parseDuration } from "./duration";');

export const BYTES_TS = L(
  'const UNITS = ["B", "KB", "MB", "GB", "TB"];',
  "",
  "export function formatBytes(n: number): string {",
  "  let value = n;",
  "  let unit = 0;",
  "  while (value >= 1024 && unit < UNITS.length - 1) {",
  "    value /= 1024;",
  "    unit += 1;",
  "  }",
  "  return `${value.toFixed(1)} ${UNITS[unit]}`;",
  "}",
);

// Line 9 ends with a space and line 10 uses single quotes: the formatter of
// scenario 3 fixes both.
export const DURATION_TS = L(
  "const FACTORS: Record<string, number> = {",
  "  ms: 1,",
  "  s: 1000,",
  "  m: 60_000,",
  "  h: 3_600_000,",
  "};",
  "",
  "export function parseDuration(text: string): number {",
  "  const match = /^(\\d+)(ms|s|m|h)$/.exec(text.trim()); ",
  "  if (!match) throw new Error('bad duration: ' + text);",
  "  return Number(match[1]) * FACTORS[match[2]];",
  "}",
);

export const SLUGIFY_TS = L(
  "const COMBINING_MARKS = /[\\u0300-\\u036f]/g;",
  "",
  '/** Lowercase ASCII slug: "H\u00e9llo, World!" \u2192 "hello-world". */',
  "export function slugify(text: string, maxLength = 80): string {",
  "  const slug = text",
  '    .normalize("NFKD")',
  '    .replace(COMBINING_MARKS, "")',
  "    .toLowerCase()",
  '    .replace(/[^a-z0-9]+/g, "-")',
  '    .replace(/^-+|-+$/g, "");',
  '  return slug.slice(0, maxLength).replace(/-+$/, "");',
  "}",
);

export const TABLE_TS = L(
  "export type Row = readonly string[];",
  "",
  "function columnWidths(rows: Row[]): number[] {",
  "  const widths: number[] = [];",
  "  for (const row of rows) {",
  "    row.forEach((cell, i) => {",
  "      widths[i] = Math.max(widths[i] ?? 0, cell.length);",
  "    });",
  "  }",
  "  return widths;",
  "}",
  "",
  "export function formatTable(rows: Row[]): string {",
  '  if (rows.length === 0) return "";',
  "  const widths = columnWidths(rows);",
  '  const lines = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join("  "));',
  '  const rule = widths.map((w) => "-".repeat(w)).join("  ");',
  "  lines.splice(1, 0, rule);",
  '  return lines.join("\\n");',
  "}",
);

export const SLUGIFY_TEST_TS = L(
  'import { test } from "node:test";',
  'import assert from "node:assert/strict";',
  'import { slugify } from "../src/slugify";',
  "",
  'test("lowercases and joins words with dashes", () => {',
  '  assert.equal(slugify("Hello World"), "hello-world");',
  "});",
  "",
  'test("strips accents and punctuation", () => {',
  '  assert.equal(slugify("Cr\u00e8me Br\u00fbl\u00e9e!"), "creme-brulee");',
  "});",
  "",
  'test("trims dashes at both ends", () => {',
  '  assert.equal(slugify("  --Already Slugged--  "), "already-slugged");',
  "});",
);

export const BENCH_TS = L(
  'import { formatTable } from "../src/table";',
  "",
  'const rows = [["name", "size"]];',
  "for (let i = 0; i < 10_000; i++) rows.push([`file-${i}.txt`, String(i * 37)]);",
  "",
  "const started = performance.now();",
  "for (let run = 0; run < 20; run++) formatTable(rows);",
  "const elapsed = (performance.now() - started) / 20;",
  "console.log(`formatTable: ${elapsed.toFixed(2)} ms per 10k rows`);",
);

export const TRUNCATE_TS = L(
  "/** Shortens text to at most `max` characters, ending with an ellipsis. */",
  "export function truncate(text: string, max: number): string {",
  "  if (text.length <= max) return text;",
  '  if (max <= 1) return "\u2026".slice(0, max);',
  '  return text.slice(0, max - 1).trimEnd() + "\u2026";',
  "}",
);

export const CSV_TS = L(
  'const NEEDS_QUOTES = /[",\\n\\r]/;',
  "",
  "function quote(field: string): string {",
  '  return NEEDS_QUOTES.test(field) ? `"${field.replace(/"/g, \'""\')}"` : field;',
  "}",
  "",
  "export function toCsv(rows: readonly (readonly string[])[]): string {",
  '  return rows.map((row) => row.map(quote).join(",")).join("\\r\\n");',
  "}",
);
