// The CLI's compiled form: esbuild bundles src/cli/main.ts and the worker job modules into dist/<stamp>/ (ESM, npm
// packages left as imports). Loading it takes a quarter of the time tsx needs to compile src/ on every start (the
// main thread and each worker thread: README, bench/README.md). The stamp is a hash of every file under src/ (path,
// size, mtime), so an edited checkout never runs stale code: the bin rebuilds (about 0.1 s) or, where it cannot
// write dist/, falls back to tsx. Plain JavaScript, so that it runs before anything is compiled.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The bundle's entry points, relative to src/: the CLI and every module a worker thread loads (src/analyze). */
export const ENTRIES = [
  "cli/main.ts",
  "analyze/entire-job.ts",
  "analyze/entire-session-job.ts",
  "analyze/entire-group-job.ts",
  "analyze/swechat-job.ts",
  "analyze/swe-agent-job.ts",
  "analyze/transcript-session-job.ts",
];

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** 16 hex digits of SHA-256 over each source file's path, size and mtime (sorted by path). */
export function sourceStamp(root) {
  const src = join(root, "src");
  const lines = [...filesUnder(src)].map((path) => {
    const s = statSync(path);
    return `${relative(src, path)}\t${s.size}\t${s.mtimeMs}`;
  });
  return createHash("sha256").update(lines.sort().join("\n")).digest("hex").slice(0, 16);
}

/**
 * dist/<stamp>/ for the current sources, built if absent: into a temporary folder renamed into place, so that
 * processes starting at once (a test suite) never see half a build; older stamps are removed.
 */
export async function ensureBuild(root) {
  const stamp = sourceStamp(root);
  const distRoot = join(root, "dist");
  const out = join(distRoot, stamp);
  if (existsSync(join(out, "cli", "main.js"))) return out;
  const { build } = await import("esbuild");
  const tmp = join(distRoot, `.tmp-${process.pid}-${Date.now()}`);
  mkdirSync(tmp, { recursive: true });
  try {
    await build({
      entryPoints: ENTRIES.map((e) => join(root, "src", e)),
      outdir: tmp,
      outbase: join(root, "src"),
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      logLevel: "silent",
    });
    renameSync(tmp, out);
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    // Another process renamed its build into place first: use it.
    if (existsSync(join(out, "cli", "main.js"))) return out;
    throw error;
  }
  // Older builds go; so do temporary folders a killed build left (an hour old: a running build takes 0.1 s).
  for (const old of readdirSync(distRoot)) {
    const path = join(distRoot, old);
    const stale = !old.startsWith(".tmp-") || Date.now() - statSync(path).mtimeMs > 3_600_000;
    if (old !== stamp && stale) rmSync(path, { recursive: true, force: true });
  }
  return out;
}

// `node bin/build.mjs` (npm run build, and npm's prepare step): build now and print the folder.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await ensureBuild(join(import.meta.dirname, ".."))}\n`);
}
