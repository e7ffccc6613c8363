/**
 * The layer order of architecture.md, read from the code: every relative
 * import under src/ is resolved to the stage (top folder) it lands in, and a
 * stage may import only itself and the stages before it. Two stricter rules
 * the issue tracker asked for: `replay` and `effort` read the model only
 * (never an adapter), and a chart builder imports no stage that loads data.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import test from "node:test";

const STAGES = [
  "model",
  "ingest",
  "replay|effort|signals",
  "attribution",
  "analyze",
  "tables",
  "taskflow|swebench",
  "charts",
  "report",
  "sample",
  "cli",
];
const rank = new Map<string, number>(
  STAGES.flatMap((names, i) => names.split("|").map((n) => [n, i] as [string, number])),
);
const ONLY_MODEL = new Set(["replay", "effort", "signals"]);
const LOADS_DATA = new Set(["ingest", "analyze"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** Relative import specifiers of a file: static imports, re-exports and dynamic `import()`. */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;"']*?from\s*["'](\.[^"']+)["']/g)) out.push(m[1]);
  for (const m of text.matchAll(/import\(\s*["'](\.[^"']+)["']\s*\)/g)) out.push(m[1]);
  return out;
}

/** The stage a path under src/ belongs to (a folder's own name for a folder import; null for src/index.ts, the public API, which may import anything). */
const stageOf = (path: string): string | null => {
  const parts = relative("src", path).split("/");
  if (parts.length > 1) return parts[0];
  return parts[0] === "index" || parts[0] === "index.ts" || parts[0].startsWith("..") ? null : parts[0];
};

function violations(files: readonly string[], read: (f: string) => string): string[] {
  const found: string[] = [];
  for (const file of files) {
    const from = stageOf(file);
    if (from === null) continue;
    for (const spec of importsOf(read(file))) {
      const to = stageOf(normalize(join(dirname(file), spec)));
      if (to === null || to === from) continue;
      const why =
        !rank.has(from) || !rank.has(to)
          ? `unknown stage ${rank.has(from) ? to : from}`
          : rank.get(to)! >= rank.get(from)!
            ? `${from} may not import ${to} (a later or parallel stage)`
            : ONLY_MODEL.has(from) && to !== "model"
              ? `${from} reads the model only`
              : from === "charts" && LOADS_DATA.has(to)
                ? "a chart builder imports no stage that loads data"
                : null;
      if (why) found.push(`${file}: import "${spec}": ${why}`);
    }
  }
  return found;
}

test("every import under src/ points down the layer order", () => {
  const files = sourceFiles("src");
  assert.ok(files.length > 100, "the source tree was found");
  assert.deepEqual(
    violations(files, (f) => readFileSync(f, "utf8")),
    [],
  );
});

test("the check fails on an import against the order (so it can fail)", () => {
  const planted: Record<string, string> = {
    "src/replay/x.ts": 'import { readClaudeCodeTranscript } from "../ingest/claude-code";',
    "src/ingest/y.ts": 'export { analyze } from "../analyze";',
    "src/charts/z.ts": 'import type { Session } from "../model";\nimport { analyze } from "../analyze/index";',
    "src/model/w.ts": 'const m = await import("../tables/from-rows");',
    "src/tables/ok.ts": 'import { z } from "zod";\nimport type { UnitRow } from "../model";',
  };
  const found = violations(Object.keys(planted), (f) => planted[f]);
  assert.equal(found.length, 4, found.join("\n"));
  assert.match(found.join("\n"), /replay may not import ingest|replay reads the model only/);
  assert.match(found.join("\n"), /ingest may not import analyze/);
  assert.match(found.join("\n"), /a chart builder imports no stage that loads data/);
  assert.match(found.join("\n"), /model may not import tables/);
});
