/**
 * A synthetic git repository with Entire checkpoints at the scale of the
 * acceptance test (several hundred sessions), built deterministically from
 * bench/generate-corpus.ts sessions (bench/entire-repo/README.md).
 *
 *   tsx bench/entire-repo/generate.ts --sessions 400 [--seed 1] [--min-kb 512] [--out DIR] [--force]
 *
 * Per session (in the order of their last record's time): a "prepare" commit
 * on main that puts every file the session edits at its first pre-image in
 * the log (files the log creates are removed), the person's commit (the
 * session's patches applied, trailer `Entire-Checkpoint: <id>`), and one
 * commit per checkpoint on the orphan branch `entire/checkpoints/v1`. About
 * a third of the sessions carry one quirk each (QUIRK_RATES). Everything goes
 * through one `git fast-import` stream with explicit dates, so one seed gives
 * the same commits. `manifest.json` (written last, git-excluded) lists
 * sessions, checkpoints, quirks, byte counts and the units `analyze` should
 * form with their expected ambiguity.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "./build";
import { ENTIRE_REPO_VERSION, type EntireRepoManifest } from "./manifest";

// The layout behind this entry point: README.md, "Layout".
export { ENTIRE_REPO_VERSION, QUIRK_RATES } from "./manifest";
export type { EntireRepoManifest, ExpectedUnit, ManifestCheckpoint, ManifestSession, Quirk } from "./manifest";
export { applyPatch } from "./patch";

export interface EntireRepoOptions {
  sessions: number;
  seed?: number;
  minKb?: number;
  out?: string;
  force?: boolean;
  log?: (line: string) => void;
}

export const defaultEntireRepoDir = (sessions: number): string =>
  join(tmpdir(), "swe-chat-eval-bench", `entire-${sessions}`);

/** Builds the repository unless one with a matching manifest is there. */
export async function ensureEntireRepo(
  options: EntireRepoOptions,
): Promise<{ dir: string; manifest: EntireRepoManifest; reused: boolean }> {
  const seed = options.seed ?? 1;
  const minKb = options.minKb ?? 512;
  const dir = resolve(options.out ?? defaultEntireRepoDir(options.sessions));
  const manifestPath = join(dir, "manifest.json");
  if (!options.force && existsSync(manifestPath) && existsSync(join(dir, ".git"))) {
    try {
      const m = JSON.parse(readFileSync(manifestPath, "utf8")) as EntireRepoManifest;
      if (m.version === ENTIRE_REPO_VERSION && m.seed === seed && m.sessions === options.sessions && m.min_kb === minKb)
        return { dir, manifest: m, reused: true };
    } catch {
      // regenerate
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = await build(dir, options.sessions, seed, minKb, options.log ?? (() => {}));
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 1));
  return { dir, manifest, reused: false };
}

// ---- CLI -------------------------------------------------------------------------

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { dir, manifest, reused } = await ensureEntireRepo({
    sessions: Number(arg("sessions") ?? 400),
    seed: Number(arg("seed") ?? 1),
    minKb: Number(arg("min-kb") ?? 512),
    out: arg("out"),
    force: process.argv.includes("--force"),
    log: (l) => console.log(l),
  });
  console.log(
    `${reused ? "reused" : "wrote"} ${dir}: ${manifest.session_list.length} sessions, ${manifest.checkpoint_list.length} checkpoints, ${manifest.expected_units.length} expected units, ${(manifest.transcript_bytes / 1048576).toFixed(1)} MB of transcripts`,
  );
  console.log(
    `  quirks: ${Object.entries(manifest.quirks)
      .sort()
      .map(([q, n]) => `${q} ${n}`)
      .join(", ")}`,
  );
}
