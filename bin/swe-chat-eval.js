#!/usr/bin/env node
// Runs the CLI from its compiled form (bin/build.mjs: dist/<stamp>/, rebuilt when src/ changed), or, where it
// cannot be built, from the TypeScript sources through tsx.
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
// V8 lets the heap grow to up to 4× what survived its last full collection, and further the longer a run goes:
// most of a long run's peak is garbage not yet collected (bench/README.md). Twice instead keeps the peak near what
// a quarter of the corpus needs: 500 MB bench corpus, 1 thread, 4 runs each interleaved, peak 300 → 225 MB (a
// quarter: 175 MB either way) for about 5 % more CPU time (22.6 → 23.9 CPU-s, medians) and 2.5 % more wall time.
// The flag is the process's: the worker threads take it too. One given to node itself
// (`node --heap-growing-percent=30 …`, lower still, for more CPU) is left as given.
if (!process.execArgv.some((a) => a.startsWith("--heap-growing-percent")))
  setFlagsFromString("--heap-growing-percent=100");
const root = fileURLToPath(new URL("..", import.meta.url));
// Worker threads load their job modules by path: tell the library where the package (and its build) is.
process.env.SWE_CHAT_EVAL_ROOT ??= root;
let main;
try {
  // SWE_CHAT_EVAL_NO_BUILD=1 runs the sources through tsx (the tests compare both forms).
  if (process.env.SWE_CHAT_EVAL_NO_BUILD === "1") throw new Error("no build");
  const { ensureBuild } = await import("./build.mjs");
  const dist = await ensureBuild(root);
  process.env.SWE_CHAT_EVAL_DIST = dist;
  ({ main } = await import(pathToFileURL(join(dist, "cli", "main.js")).href));
} catch (error) {
  // Said, not hidden: the sources still run, but each start then compiles them (about 1 s more, in every worker).
  if (process.env.SWE_CHAT_EVAL_NO_BUILD !== "1")
    process.stderr.write(`note: running from the TypeScript sources (the build failed: ${error?.message ?? error})\n`);
  delete process.env.SWE_CHAT_EVAL_DIST;
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
