/**
 * The one masking rule for every output (tables in CSV, JSON and Parquet,
 * the report, notebook displays, exports): text that looks like a
 * credential is replaced before it is written. Transcripts carry whatever
 * the user pasted or the agent printed (API keys in .env files, tokens in
 * curl commands, in URLs, in file paths). Known formats keep a short prefix
 * so a reader sees what was there; other long high-entropy tokens are
 * masked whole. Commit SHAs, UUIDs and plain words are left alone.
 *
 * Bounded on any input: two linear scans over character codes, no regular
 * expression over the untrusted text (a greedy or lazy quantifier over a
 * multi-MiB unbroken run overflows V8's backtracking stack), no array that
 * grows with a run's length (token statistics are counted in place).
 */

const MASK = "[masked]";
export { MASK };

const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isAlnum = (c: number) => isDigit(c) || isUpper(c) || isLower(c);
/** `\w` of a regular expression: the characters a `\b` separates from the rest. */
const isWord = (c: number) => isAlnum(c) || c === 95;
const isUrlSafe = (c: number) => isWord(c) || c === 45; // [A-Za-z0-9_-]
const isCandidate = (c: number) => isUrlSafe(c) || c === 43 || c === 47; // [A-Za-z0-9+/_-]

/** The end of the run of characters satisfying `ok` that starts at `i`. */
function runEnd(text: string, i: number, ok: (c: number) => boolean): number {
  while (i < text.length && ok(text.charCodeAt(i))) i++;
  return i;
}

/** A known key format: the character it starts with, where its match starting at `i` ends (-1: none), and the prefix kept. */
interface KnownFormat {
  first: string;
  end: (text: string, i: number) => number;
  keep: (text: string, i: number) => string;
}

/** `prefix` then at least `min` characters satisfying `ok`, as many as there are. */
const prefixThenRun = (prefix: string, ok: (c: number) => boolean, min: number) => (text: string, i: number) => {
  if (!text.startsWith(prefix, i)) return -1;
  const end = runEnd(text, i + prefix.length, ok);
  return end - (i + prefix.length) >= min ? end : -1;
};

/** `prefix` then exactly `n` characters satisfying `ok`; with `boundary`, not followed by a word character. */
const prefixThenExactly =
  (prefix: string, ok: (c: number) => boolean, n: number, boundary: boolean) => (text: string, i: number) => {
    if (!text.startsWith(prefix, i)) return -1;
    const start = i + prefix.length;
    if (start + n > text.length) return -1;
    for (let k = start; k < start + n; k++) if (!ok(text.charCodeAt(k))) return -1;
    return boundary && start + n < text.length && isWord(text.charCodeAt(start + n)) ? -1 : start + n;
  };

/** A JSON Web Token: three base64url parts of at least 4 characters, the first two JSON objects ("eyJ"). */
function jwtEnd(text: string, i: number): number {
  let at = i;
  for (let part = 0; part < 3; part++) {
    if (part < 2 && !text.startsWith("eyJ", at)) return -1;
    const from = part < 2 ? at + 3 : at;
    const end = runEnd(text, from, isUrlSafe);
    if (end - from < 4) return -1;
    if (part === 2) return end;
    if (text.charCodeAt(end) !== 46) return -1; // "."
    at = end + 1;
  }
  return -1;
}

const isPemWord = (c: number) => isUpper(c) || c === 32;
/** `-----<word> [A-Z ]*PRIVATE KEY-----` at `i`: its end, or -1. */
function pemLineEnd(text: string, i: number, word: string): number {
  if (!text.startsWith(`-----${word} `, i)) return -1;
  const end = runEnd(text, i + word.length + 6, isPemWord);
  return text.startsWith("PRIVATE KEY", end - 11) && end - 11 >= i + word.length + 6 && text.startsWith("-----", end)
    ? end + 5
    : -1;
}

/** A PEM private key: from its BEGIN line to its END line, or to the end of the text when the END line is missing. */
function pemEnd(text: string, i: number): number {
  const begin = pemLineEnd(text, i, "BEGIN");
  if (begin < 0) return -1;
  for (let at = text.indexOf("-----END ", begin); at >= 0; at = text.indexOf("-----END ", at + 1)) {
    const end = pemLineEnd(text, at, "END");
    if (end >= 0) return end;
  }
  return text.length;
}

const prefixed = (
  prefixes: readonly string[],
  end: (p: string) => KnownFormat["end"],
  keep: (p: string) => string = (p) => p,
): KnownFormat[] => prefixes.map((p) => ({ first: p[0], end: end(p), keep: () => keep(p) }));
const isSlackChar = (c: number) => isAlnum(c) || c === 45;
const isAwsChar = (c: number) => isDigit(c) || isUpper(c);

const KNOWN: KnownFormat[] = [
  // Anthropic (sk-ant-…), OpenAI (sk-…, sk-proj-…) and similar keys.
  {
    first: "s",
    end: prefixThenRun("sk-", isUrlSafe, 16),
    keep: (t, i) => (t.startsWith("sk-ant-", i) ? "sk-ant-" : "sk-"),
  },
  // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
  ...prefixed(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], (p) => prefixThenRun(p, isAlnum, 20)),
  ...prefixed(
    ["github_pat_"],
    (p) => prefixThenRun(p, isWord, 20),
    () => "github_",
  ),
  // AWS access key ids.
  ...prefixed(["AKIA", "ASIA"], (p) => prefixThenExactly(p, isAwsChar, 16, true)),
  { first: "e", end: jwtEnd, keep: () => "JWT " },
  // Slack and Google API keys.
  ...prefixed(["xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"], (p) => prefixThenRun(p, isSlackChar, 10)),
  ...prefixed(["AIza"], (p) => prefixThenExactly(p, isUrlSafe, 35, false)),
];
const PEM: KnownFormat = { first: "-", end: pemEnd, keep: () => "PRIVATE KEY " };
/** The known formats by the character code they start with: most words need no check at all. */
const KNOWN_BY_FIRST = new Map<number, KnownFormat[]>();
for (const f of KNOWN)
  KNOWN_BY_FIRST.set(f.first.charCodeAt(0), [...(KNOWN_BY_FIRST.get(f.first.charCodeAt(0)) ?? []), f]);

/** Pass 1: each known key format (at a word start; a PEM block anywhere) replaced by its kept prefix and the mask. */
function maskKnownFormats(text: string): string {
  let out = "";
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let format: KnownFormat | null = null;
    let end = -1;
    if (c === 45) {
      end = PEM.end(text, i);
      if (end >= 0) format = PEM;
    } else if (KNOWN_BY_FIRST.has(c) && (i === 0 || !isWord(text.charCodeAt(i - 1)))) {
      for (const f of KNOWN_BY_FIRST.get(c)!) {
        end = f.end(text, i);
        if (end >= 0) {
          format = f;
          break;
        }
      }
    }
    if (format === null) continue;
    out += text.slice(copied, i) + format.keep(text, i) + MASK;
    copied = end;
    i = end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Statistics of a token, counted in one pass with no per-character array. */
interface TokenStats {
  upper: boolean;
  lower: boolean;
  digits: number;
  switchRate: number;
  entropy: number;
}

function tokenStats(text: string, start: number, end: number): TokenStats {
  const counts = new Uint32Array(128);
  let digits = 0;
  let upper = false;
  let lower = false;
  let switches = 0;
  let prevClass = -1;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    counts[c & 127]++;
    const cls = isDigit(c) ? 0 : isLower(c) ? 1 : isUpper(c) ? 2 : 3;
    if (cls === 0) digits++;
    else if (cls === 1) lower = true;
    else if (cls === 2) upper = true;
    if (prevClass >= 0 && cls !== prevClass) switches++;
    prevClass = cls;
  }
  const n = end - start;
  let entropy = 0;
  for (const k of counts) if (k > 0) entropy -= (k / n) * Math.log2(k / n);
  return { upper, lower, digits, switchRate: switches / Math.max(1, n - 1), entropy };
}

/**
 * A long token that mixes upper case, lower case and at least three digits,
 * switching between them often, with high entropy: random keys do (about 9
 * in 10 random 32-character base62 strings qualify; known key formats are
 * matched by their prefix above), while hex SHAs and UUIDs (one case),
 * paths (slashes break them into words) and camelCase identifiers (few
 * digits, long runs of letters) do not.
 */
function tokenLooksLikeSecret(text: string, start: number, end: number): boolean {
  while (end > start && text.charCodeAt(end - 1) === 61) end--; // trailing "="
  if (end - start < 32) return false;
  const s = tokenStats(text, start, end);
  // Three digits at least: random base62 has about five in 32 characters, camelCase names rarely more than one.
  // The switch rate is about 0.6 in random base62, 0.1–0.25 in camelCase words.
  return s.upper && s.lower && s.digits >= 3 && s.switchRate >= 0.35 && s.entropy >= 4.0;
}

/** Whether a whole token (e.g. `Zx8Qp2Lm9Vt4Rk7Ws1Yn6Hb3Jd5Fg0Ca`) would be masked as a random key. */
export function looksLikeSecret(token: string): boolean {
  return tokenLooksLikeSecret(token, 0, token.length);
}

/**
 * Checksums of public content, written as such: go.sum's `h1:<base64>` and Subresource Integrity's
 * `sha256-`/`sha384-`/`sha512-<base64>` (package-lock.json, HTML). They look random and are published by design;
 * masking them would hide committed lines of lock files, not a secret.
 */
function isContentHash(text: string, start: number): boolean {
  if (start >= 3 && text.startsWith("h1:", start - 3)) return true;
  return text.startsWith("sha256-", start) || text.startsWith("sha384-", start) || text.startsWith("sha512-", start);
}

/** Pass 2: every run of `[A-Za-z0-9+/_-]` of 32 characters or more (with up to two `=`) that looks random, masked whole. */
function maskRandomTokens(text: string): string {
  let out = "";
  let copied = 0;
  for (let i = 0; i < text.length; ) {
    if (!isCandidate(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = runEnd(text, i, isCandidate);
    if (end - i >= 32 && !isContentHash(text, i)) {
      for (let pad = 0; pad < 2 && text.charCodeAt(end) === 61; pad++) end++;
      if (tokenLooksLikeSecret(text, i, end)) {
        out += text.slice(copied, i) + MASK;
        copied = end;
      }
    }
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The text with every credential-looking substring replaced by `<prefix>[masked]`. Linear in the text's length. */
export function maskSecrets(text: string): string {
  return maskRandomTokens(maskKnownFormats(text));
}

/** Unicode bidirectional embeddings, overrides and isolates: they can make a shown name read as another ("exe.txt" shown for "txt.exe"). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** The text with each bidirectional control written out as `⟦U+202E⟧`, so that what a reader sees is what the log holds. */
export function showBidiControls(text: string): string {
  // One character class, no quantifier: linear, nothing to backtrack.
  return text.replace(BIDI_CONTROLS, (c) => `⟦U+${c.charCodeAt(0).toString(16).toUpperCase()}⟧`);
}

/** Texts up to this length are remembered by a masker (names, paths, models repeat); longer ones are masked each time, not kept. */
const CACHED_TEXT_MAX = 4096;

/** A caching `transform` for columns that repeat the same values (models, repositories, paths). */
export function cachedText(transform: (text: string) => string): (text: string) => string {
  const cache = new Map<string, string>();
  return (text) => {
    if (text.length > CACHED_TEXT_MAX) return transform(text);
    let v = cache.get(text);
    if (v === undefined) {
      v = transform(text);
      if (cache.size < 200_000) cache.set(text, v);
    }
    return v;
  };
}

/** `maskSecrets` and `showBidiControls` with a cache: what the report and notebooks show. */
export function makeMasker(): (text: string) => string {
  return cachedText((text) => showBidiControls(maskSecrets(text)));
}
