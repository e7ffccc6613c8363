/**
 * The file a Pi `write`/`edit` call names, resolved as Pi resolves it
 * (badlogic/pi-mono v0.58.3 `packages/coding-agent/src/core/tools/path-utils.ts`,
 * `resolveToCwd` → `expandPath`): a leading `@` dropped (`normalizeAtPrefix`),
 * Unicode spaces made plain (`normalizeUnicodeSpaces`: U+00A0, U+2000–U+200A,
 * U+202F, U+205F, U+3000), then `~` or a leading `~/` replaced by the home
 * folder (`os.homedir()`); a relative path is then resolved against the cwd,
 * which replay's path mapper does with the header cwd.
 *
 * The home folder is not in the log. It is read from the header cwd when that
 * lies in one (`/home/<user>`, `/Users/<user>`, `/root`, `C:\Users\<user>`):
 * sessions almost always run in a checkout under the person's home. Left as
 * logged otherwise (and counted: replay would read it as relative to the cwd).
 */
import type { PiEditNotes } from "./file-edits";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const HOME_PATTERNS = [
  /^\/home\/[^/]+(?=\/|$)/,
  /^\/Users\/[^/]+(?=\/|$)/,
  /^\/root(?=\/|$)/,
  /^[A-Za-z]:[\\/]Users[\\/][^\\/]+(?=[\\/]|$)/i,
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The home folder a cwd lies in, or null. */
export function homeOfCwd(cwd: string | null | undefined): string | null {
  if (!cwd) return null;
  for (const re of HOME_PATTERNS) {
    const m = re.exec(cwd);
    if (m) return m[0];
  }
  return null;
}

/**
 * The path a Pi tool call names (`path`; `file_path` is accepted by newer renderers), as Pi's `expandPath`
 * leaves it; `cwd` (the header's) gives the home folder for `~`. Null when the call names none.
 */
export function piPathOf(args: unknown, cwd: string | null = null, notes?: PiEditNotes): string | null {
  if (!isObject(args)) return null;
  const raw = typeof args.path === "string" ? args.path : typeof args.file_path === "string" ? args.file_path : null;
  if (raw === null || raw.trim() === "") return null;
  const path = (raw.startsWith("@") ? raw.slice(1) : raw).replace(UNICODE_SPACES, " ");
  if (path !== "~" && !path.startsWith("~/")) return path;
  const home = homeOfCwd(cwd);
  if (home === null) {
    if (notes) notes.homeUnknown++;
    return path;
  }
  if (notes) notes.homeExpanded++;
  // Pi's expandPath: `os.homedir() + normalized.slice(1)`.
  return path === "~" ? home : home + path.slice(1);
}
