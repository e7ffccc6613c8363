/**
 * Masks text that looks like a credential before it is shown: transcripts
 * carry whatever the user pasted or the agent printed (API keys in .env
 * files, tokens in curl commands). Known formats keep a short prefix so a
 * reader sees what was there; other long high-entropy tokens are masked
 * whole. Commit SHAs, UUIDs and plain words are left alone.
 */

const KNOWN: { pattern: RegExp; keep: (m: string) => string }[] = [
  // Anthropic (sk-ant-…), OpenAI (sk-…, sk-proj-…) and similar keys.
  { pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, keep: (m) => (m.startsWith("sk-ant-") ? "sk-ant-" : "sk-") },
  // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
  { pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, keep: (m) => m.slice(0, m.indexOf("_") + 1) },
  // AWS access key ids.
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, keep: (m) => m.slice(0, 4) },
  // JSON Web Tokens: three base64url parts, the first two JSON objects ("eyJ").
  { pattern: /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g, keep: () => "JWT " },
  // Slack and Google API keys.
  { pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, keep: (m) => m.slice(0, 5) },
  { pattern: /\bAIza[0-9A-Za-z_-]{35}/g, keep: () => "AIza" },
  // PEM private keys.
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, keep: () => "PRIVATE KEY " },
];

const CANDIDATE = /[A-Za-z0-9+/_-]{32,}={0,2}/g;

/** Bits per character of the string's own character distribution. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const charClass = (c: string) => (c >= "0" && c <= "9" ? 0 : c >= "a" && c <= "z" ? 1 : c >= "A" && c <= "Z" ? 2 : 3);

/** Share of adjacent characters of different classes (digit, lower, upper, other): about 0.6 in random base62, 0.1–0.25 in camelCase words. */
function classSwitchRate(s: string): number {
  let switches = 0;
  for (let i = 1; i < s.length; i++) if (charClass(s[i]) !== charClass(s[i - 1])) switches++;
  return switches / Math.max(1, s.length - 1);
}

/**
 * A long token that mixes upper case, lower case and at least three digits,
 * switching between them often, with high entropy: random keys do (about 9
 * in 10 random 32-character base62 strings qualify; known key formats are
 * matched by their prefix above), while hex SHAs and UUIDs (one case),
 * paths (slashes break them into words) and camelCase identifiers (few
 * digits, long runs of letters) do not.
 */
export function looksLikeSecret(token: string): boolean {
  const core = token.replace(/=+$/, "");
  if (core.length < 32) return false;
  // Three digits at least: random base62 has about five in 32 characters, camelCase names rarely more than one.
  if (!/[A-Z]/.test(core) || !/[a-z]/.test(core) || (core.match(/[0-9]/g) ?? []).length < 3) return false;
  return classSwitchRate(core) >= 0.35 && entropy(core) >= 4.0;
}

export const MASK = "[masked]";

/** The text with every credential-looking substring replaced by `<prefix>[masked]`. */
export function maskSecrets(text: string): string {
  let out = text;
  for (const { pattern, keep } of KNOWN) out = out.replace(pattern, (m) => `${keep(m)}${MASK}`);
  return out.replace(CANDIDATE, (m) => (looksLikeSecret(m) ? MASK : m));
}

/** Unicode bidirectional embeddings, overrides and isolates: they can make a shown name read as another ("exe.txt" shown for "txt.exe"). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** The text with each bidirectional control written out as `⟦U+202E⟧`, so that what a reader sees is what the log holds. */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `⟦U+${c.charCodeAt(0).toString(16).toUpperCase()}⟧`);
}

/** `maskSecrets` and `showBidiControls` with a cache, for columns that repeat the same values (models, repositories, paths). */
export function makeMasker(): (text: string) => string {
  const cache = new Map<string, string>();
  return (text) => {
    let v = cache.get(text);
    if (v === undefined) {
      v = showBidiControls(maskSecrets(text));
      if (cache.size < 200_000) cache.set(text, v);
    }
    return v;
  };
}
