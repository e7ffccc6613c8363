import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The folder holding this package's `src/` (for worker modules, which need a
 * file path). No `import.meta` here (notebooks compile src to CommonJS): the
 * CLI sets `SWE_CHAT_EVAL_ROOT`; else the first ancestor of the working
 * directory with `src/analyze/parallel.ts`.
 */
export function packageRoot(): string | null {
  const fromEnv = process.env.SWE_CHAT_EVAL_ROOT;
  if (fromEnv && existsSync(join(fromEnv, "src", "analyze", "parallel.ts"))) return fromEnv;
  let dir = process.cwd();
  for (;;) {
    if (existsSync(join(dir, "src", "analyze", "parallel.ts"))) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/**
 * The file a worker thread loads for job module `name` (in src/analyze): its compiled form when the CLI runs from
 * its build (bin/build.mjs sets `SWE_CHAT_EVAL_DIST`), so that workers skip compiling TypeScript as the main thread
 * does; else the TypeScript source, which the pool loads through tsx.
 */
export function jobModulePath(root: string, name: string): string {
  const dist = process.env.SWE_CHAT_EVAL_DIST;
  const compiled = dist ? join(dist, "analyze", `${name}.js`) : null;
  return compiled && existsSync(compiled) ? compiled : join(root, "src", "analyze", `${name}.ts`);
}
