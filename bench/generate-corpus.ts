/**
 * Deterministic generator of synthetic Claude Code 2.x sessions for the
 * benches (bench/README.md): `generateSession(seed, index)` gives one
 * transcript and the person's commit (`[{path, patch}]`, unified diffs from
 * the log's first pre-image of each touched file to the committed content:
 * the agent's final state with a few lines changed by a "person").
 * bench/transcripts-corpus.ts lays sessions out with their repository,
 * bench/entire-repo/ builds an Entire repository from them.
 *
 * The records follow research/formats.md §2: one assistant record per streamed
 * content block (sharing message.id and requestId, usage growing), tool results
 * with `toolUseResult` (Edit: originalFile/oldString/newString/structuredPatch;
 * Write create/update; MultiEdit; Read with the file text twice: numbered in
 * the tool_result, raw in toolUseResult), failed edits (is_error, string
 * toolUseResult), bash_progress / hook_progress / agent_progress (sub-agent
 * messages with nested edits) and file-history-snapshot records. As in real
 * logs, tool results and file contents dominate the bytes.
 */
import { structuredPatch } from "diff";

// ---- PRNG ------------------------------------------------------------------

/** sfc32 seeded through splitmix32: fast, deterministic, good enough for test data. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.next();
  }
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** Log-normal with the given median; sigma on the log scale. */
  logNormal(median: number, sigma: number): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(sigma * z);
  }
  hex(n: number): string {
    let s = "";
    while (s.length < n)
      s += Math.floor(this.next() * 4294967296)
        .toString(16)
        .padStart(8, "0");
    return s.slice(0, n);
  }
  base62(n: number): string {
    const abc = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let s = "";
    for (let i = 0; i < n; i++) s += abc[Math.floor(this.next() * 62)];
    return s;
  }
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[this.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
  weighted<T extends string>(weights: Record<T, number>): T {
    let total = 0;
    for (const k in weights) total += weights[k];
    let x = this.next() * total;
    for (const k in weights) {
      x -= weights[k];
      if (x < 0) return k;
    }
    return Object.keys(weights)[0] as T;
  }
}

// ---- text ------------------------------------------------------------------

const WORDS = (
  "user session token config cache request response handler error result value item items list map key index count total " +
  "buffer stream reader writer parser record line file path name id status state event queue worker job task timer retry " +
  "limit offset page size width height color theme layout render view model store action payload schema field column row " +
  "table query filter sort order group batch chunk stats metric score report commit branch repo diff patch hunk edit change " +
  "agent tool call usage cost price model prompt turn input output source target context options settings client server " +
  "socket message channel topic hook plugin module package version build test spec mock fixture snapshot loader router"
).split(" ");
const TYPES = [
  "string",
  "number",
  "boolean",
  "Session",
  "Record<string, unknown>",
  "string[]",
  "Promise<void>",
  "Map<string, number>",
  "Options",
  "Result",
];
const OPS = ["===", "!==", ">", "<", ">=", "<="];
const PROSE = (
  "the this that we it is are be to of and in for on with as by at from not when then if so but or " +
  "should would could need needs want check make sure update fix add remove handle return use uses run runs test tests build " +
  "looks like now also first next let me I'll see here there because instead still already only each all some any"
).split(" ");

function camel(rng: Rng, n = rng.int(1, 3)): string {
  let s = rng.pick(WORDS);
  for (let i = 1; i < n; i++) {
    const w = rng.pick(WORDS);
    s += w[0].toUpperCase() + w.slice(1);
  }
  return s;
}

function pascal(rng: Rng): string {
  const s = camel(rng, rng.int(1, 2));
  return s[0].toUpperCase() + s.slice(1);
}

function prose(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    let w = rng.chance(0.25) ? rng.pick(WORDS) : rng.pick(PROSE);
    if (i === 0 || out[out.length - 1].endsWith(".")) w = w[0].toUpperCase() + w.slice(1);
    if (rng.chance(0.03)) w = "`" + camel(rng) + "`";
    if (rng.chance(0.08) || i === words - 1) w += ".";
    out.push(w);
  }
  return out.join(" ");
}

type Lang = "ts" | "py" | "md";

function codeLine(rng: Rng, lang: Lang, indent: number): string {
  const pad = lang === "py" ? "    ".repeat(indent) : "  ".repeat(indent);
  const a = camel(rng);
  const b = camel(rng);
  const n = rng.int(0, 999);
  if (lang === "py") {
    switch (rng.int(0, 7)) {
      case 0:
        return `${pad}${a} = ${b}(${camel(rng)}, ${n})`;
      case 1:
        return `${pad}if ${a}.${b} ${rng.pick(OPS.slice(2))} ${n}:`;
      case 2:
        return `${pad}return ${a}.${b}(${camel(rng)})`;
      case 3:
        return `${pad}# ${prose(rng, rng.int(3, 12))}`;
      case 4:
        return `${pad}self.${a} = ${b}`;
      case 5:
        return `${pad}for ${a} in ${b}:`;
      case 6:
        return `${pad}logger.info("${prose(rng, rng.int(2, 6))} %s", ${a})`;
      default:
        return `${pad}${a}.append(${b}[${n % 10}])`;
    }
  }
  switch (rng.int(0, 11)) {
    case 0:
      return `${pad}const ${a} = ${b}(${camel(rng)}, ${n});`;
    case 1:
      return `${pad}if (${a}.${b} ${rng.pick(OPS)} ${n}) return ${camel(rng)};`;
    case 2:
      return `${pad}return ${a}.${b}(${camel(rng)});`;
    case 3:
      return `${pad}// ${prose(rng, rng.int(3, 12))}`;
    case 4:
      return `${pad}let ${a}: ${rng.pick(TYPES)} = ${rng.chance(0.5) ? n : `"${camel(rng)}"`};`;
    case 5:
      return `${pad}await ${a}.${b}(\`${prose(rng, rng.int(2, 5))} \${${camel(rng)}}\`);`;
    case 6:
      return `${pad}${a}: ${rng.chance(0.5) ? n : `"${camel(rng)}"`},`;
    case 7:
      return `${pad}${a}.${b} = ${camel(rng)} ?? ${n};`;
    case 8:
      return `${pad}throw new Error(\`${prose(rng, rng.int(3, 7))}: \${${a}}\`);`;
    case 9:
      return `${pad}for (const ${a} of ${b}) ${camel(rng)}.push(${a}.${camel(rng, 1)});`;
    case 10:
      return `${pad}this.${a} = ${b}.${camel(rng)}(${n}, ${camel(rng)});`;
    default:
      return `${pad}${a}(${b}, { ${camel(rng, 1)}: ${n}, ${camel(rng, 1)}: ${rng.chance(0.5)} });`;
  }
}

/** A block of code lines (a function, a class method, a section). */
function codeBlock(rng: Rng, lang: Lang, maxLines: number): string[] {
  if (lang === "md") {
    const out = [`## ${pascal(rng)} ${camel(rng)}`, ""];
    const paras = rng.int(1, 3);
    for (let p = 0; p < paras && out.length < maxLines; p++) {
      const lines = rng.int(1, 4);
      for (let i = 0; i < lines; i++) out.push(prose(rng, rng.int(8, 16)));
      out.push("");
    }
    return out;
  }
  const out: string[] = [];
  const body = Math.max(1, Math.min(maxLines - 3, rng.int(2, 14)));
  if (lang === "py") {
    out.push(
      `def ${camel(rng).replace(/[A-Z]/g, (c) => "_" + c.toLowerCase())}(${camel(rng, 1)}, ${camel(rng, 1)}=${rng.int(0, 9)}):`,
    );
    out.push(`    """${prose(rng, rng.int(4, 10))}"""`);
    for (let i = 0; i < body; i++) out.push(codeLine(rng, lang, rng.chance(0.3) ? 2 : 1));
    out.push("");
    return out;
  }
  out.push(
    `export ${rng.chance(0.3) ? "async " : ""}function ${camel(rng)}(${camel(rng, 1)}: ${rng.pick(TYPES)}, ${camel(rng, 1)}: ${rng.pick(TYPES)}): ${rng.pick(TYPES)} {`,
  );
  let depth = 1;
  for (let i = 0; i < body; i++) {
    if (depth < 3 && rng.chance(0.12)) {
      out.push(`${"  ".repeat(depth)}if (${camel(rng)}.${camel(rng, 1)} ${rng.pick(OPS)} ${rng.int(0, 99)}) {`);
      depth++;
    } else if (depth > 1 && rng.chance(0.25)) {
      depth--;
      out.push(`${"  ".repeat(depth)}}`);
    } else out.push(codeLine(rng, lang, depth));
  }
  while (depth > 0) {
    depth--;
    out.push(`${"  ".repeat(depth)}}`);
  }
  out.push("");
  return out;
}

function makeFile(rng: Rng, lang: Lang, lines: number): string {
  const out: string[] = [];
  if (lang === "ts") {
    const imports = rng.int(1, 6);
    for (let i = 0; i < imports; i++) out.push(`import { ${camel(rng)}, ${camel(rng)} } from "./${camel(rng, 1)}";`);
    out.push("");
  } else if (lang === "py") {
    for (let i = rng.int(1, 4); i > 0; i--) out.push(`from .${camel(rng, 1)} import ${camel(rng)}`);
    out.push("");
  } else out.push(`# ${pascal(rng)} ${camel(rng)}`, "");
  while (out.length < lines) out.push(...codeBlock(rng, lang, lines - out.length + 3));
  return out.join("\n") + "\n";
}

/** Lines as an array; the text ends with "\n" (or is empty), which does not start another line. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

const numbered = (lines: readonly string[], first: number): string =>
  lines.map((l, i) => `${String(first + i).padStart(6)}\u2192${l}`).join("\n");

const READ_REMINDER =
  "\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or augment the code. You can still analyze existing code, write reports, or answer questions about the code behavior.\n</system-reminder>\n";

// ---- edits -----------------------------------------------------------------

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

interface RegionEdit {
  oldString: string;
  newString: string;
  after: string;
  hunk: Hunk;
  /** 0-based first line of the change in the new text, and the number of new lines. */
  at: number;
  added: number;
}

/**
 * Replaces a few whole lines of `text` that occur exactly once as a
 * substring (as Claude Code's Edit requires). Returns null when no unique
 * region is found. Applies Claude Code's semantics (an empty new string also
 * deletes the newline after the old one).
 */
function regionEdit(
  rng: Rng,
  text: string,
  lang: Lang,
  mode = rng.weighted({ modify: 45, insert: 30, replace: 17, remove: 8 }),
): RegionEdit | null {
  const lines = linesOf(text);
  if (lines.length < 2) return null;
  for (let attempt = 0; attempt < 12; attempt++) {
    // Whole lines, first and last not blank (as the agent picks them), occurring once in the file.
    const i = rng.int(0, lines.length - 1);
    if (lines[i].trim() === "") continue;
    let k = rng.int(1, 4);
    if (i + k > lines.length) k = lines.length - i;
    let old = lines.slice(i, i + k).join("\n");
    const ok = () => lines[i + k - 1].trim() !== "" && text.indexOf(old) === text.lastIndexOf(old);
    while (!ok() && i + k < lines.length && k < 8) {
      k++;
      old = lines.slice(i, i + k).join("\n");
    }
    if (!ok()) continue;
    // The match must be the whole lines (it is unique, so it is where we took it from).
    const indent = /^\s*/.exec(lines[i])![0].length / (lang === "py" ? 4 : 2);
    let added: string[];
    switch (mode) {
      case "modify":
        added = lines
          .slice(i, i + k)
          .map((l) => (l.trim() !== "" && rng.chance(0.7) ? codeLine(rng, lang, Math.floor(indent)) : l));
        if (added.join("\n") === old) added[0] = codeLine(rng, lang, Math.floor(indent));
        break;
      case "insert": {
        const extra: string[] = [];
        const n = rng.chance(0.25) ? rng.int(10, 40) : rng.int(1, 9);
        while (extra.length < n)
          extra.push(
            ...(rng.chance(0.3)
              ? codeBlock(rng, lang, n - extra.length + 3)
              : [codeLine(rng, lang, Math.floor(indent))]),
          );
        added = rng.chance(0.5) ? [...lines.slice(i, i + k), ...extra] : [...extra, ...lines.slice(i, i + k)];
        break;
      }
      case "replace": {
        added = [];
        const n = rng.int(1, 20);
        while (added.length < n)
          added.push(
            ...(rng.chance(0.3)
              ? codeBlock(rng, lang, n - added.length + 3)
              : [codeLine(rng, lang, Math.floor(indent))]),
          );
        break;
      }
      default:
        added = k > 1 && rng.chance(0.5) ? lines.slice(i, i + 1) : [];
    }
    const newString = added.join("\n");
    if (newString === old) continue;
    // Claude Code: deleting a text that does not end in a newline also deletes the newline after it.
    const removeNewline = newString === "" && !old.endsWith("\n") && text.includes(old + "\n");
    const start = text.indexOf(old);
    const end = start + old.length + (removeNewline ? 1 : 0);
    const after = text.slice(0, start) + newString + text.slice(end);
    const m = added.length;
    const c0 = Math.max(0, i - 3);
    const c1 = Math.min(lines.length, i + k + 3);
    const hunkLines = [
      ...lines.slice(c0, i).map((l) => " " + l),
      ...lines.slice(i, i + k).map((l) => "-" + l),
      ...added.map((l) => "+" + l),
      ...lines.slice(i + k, c1).map((l) => " " + l),
    ];
    const hunk: Hunk = {
      oldStart: c0 + 1,
      oldLines: c1 - c0,
      newStart: c0 + 1,
      newLines: c1 - c0 - k + m,
      lines: hunkLines,
    };
    return { oldString: old, newString, after, hunk, at: i, added: m };
  }
  return null;
}

function hunksOf(before: string, after: string): Hunk[] {
  return structuredPatch("a", "b", before, after, undefined, undefined, { context: 3 }).hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }));
}

/** A git-style unified diff of one file. */
function unifiedDiff(path: string, before: string | null, after: string): string {
  const p = structuredPatch(`a/${path}`, `b/${path}`, before ?? "", after, undefined, undefined, { context: 3 });
  const out = [
    `diff --git a/${path} b/${path}`,
    before === null || before === "" ? "--- /dev/null" : `--- a/${path}`,
    `+++ b/${path}`,
  ];
  for (const h of p.hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    out.push(...h.lines);
  }
  return out.join("\n") + "\n";
}

// ---- sessions --------------------------------------------------------------

interface FileInfo {
  rel: string;
  abs: string;
  lang: Lang;
  /** Current content on disk; null = does not exist. */
  content: string | null;
  baseLines: number;
  /** Read since its last change by someone other than the agent. */
  read: boolean;
  /** The first successful edit's pre-image (undefined: never edited). */
  firstPre: string | undefined;
  backups: number;
}

interface ToolOutcome {
  content: string | unknown[];
  isError?: boolean;
  toolUseResult: unknown;
}

interface PlannedCall {
  name: string;
  input: Record<string, unknown>;
  /** Runs the call (after its tool_use `id` was written): emits any progress records, returns the result. */
  run(id: string): ToolOutcome;
}

const MODELS = ["claude-opus-4-6", "claude-sonnet-4-5-20250929", "claude-opus-4-5-20251101"];
const VERSIONS = ["2.0.76", "2.1.19", "2.1.29", "2.1.37", "2.1.42"];
const DIRS = ["src", "src/core", "src/api", "src/util", "src/cli", "lib", "test", "pkg/server", "app/models", "docs"];
const BASH = [
  "npm test",
  "npx tsc --noEmit",
  "npm run lint",
  "git status",
  "git diff --stat",
  "ls -la src",
  "pytest -x -q",
  "go test ./...",
  "git log --oneline -20",
  "rg -n TODO src",
];
const ADJ = ["polymorphic", "wild", "peaceful", "gentle", "curious", "silent", "brave", "lucky"];
const VERB = ["sparking", "inventing", "shimmying", "drifting", "humming", "folding", "racing"];
const NOUN = ["prism", "candle", "pancake", "otter", "lantern", "meadow", "comet"];

class SessionWriter {
  readonly lines: string[] = [];
  bytes = 0;
  readonly mix: Record<string, number>;
  readonly id: string;
  readonly cwd: string;
  readonly home: string;
  readonly version: string;
  readonly branch: string;
  readonly slug: string;
  readonly model: string;
  readonly hooks: boolean;
  readonly files = new Map<string, FileInfo>();
  parent: string | null = null;
  t: number;
  ctxTokens = 0;
  lastCtx = 0;
  tasks = 0;
  /** Actions forced next (e.g. a re-read after a failed edit). */
  readonly forced: (() => PlannedCall | null)[] = [];
  snapshotIds: string[] = [];

  constructor(
    readonly rng: Rng,
    mix: Record<string, number>,
    place: SessionPlace = {},
  ) {
    this.mix = mix;
    this.id = rng.uuid();
    const user = rng.pick(["alex", "sam", "dev", "kim", "jo"]);
    this.home = `/Users/${user}`;
    this.cwd = `${this.home}/work/${camel(rng, 2).toLowerCase()}${rng.chance(0.15) ? `/.worktrees/${rng.int(1, 4)}` : ""}`;
    this.version = rng.pick(VERSIONS);
    this.branch = rng.chance(0.3) ? "main" : `${rng.pick(["feat", "fix", "chore"])}/${camel(rng, 2).toLowerCase()}`;
    this.slug = `${rng.pick(ADJ)}-${rng.pick(VERB)}-${rng.pick(NOUN)}`;
    this.model = rng.pick(MODELS);
    this.hooks = rng.chance(0.4);
    this.t = Date.UTC(2026, 0, 1) + rng.int(0, 90 * 86400) * 1000;
    this.ctxTokens = rng.int(8000, 25000);
    // Placed after every draw above, so a placed session makes the same draws as an unplaced one.
    if (place.project !== undefined)
      this.cwd = `${this.home}/work/${place.project}${this.cwd.includes("/.worktrees/") ? this.cwd.slice(this.cwd.indexOf("/.worktrees/")) : ""}`;
    if (place.startMs !== undefined) this.t = place.startMs;
    const nFiles = rng.int(6, 24);
    for (let i = 0; i < nFiles; i++) this.addFile(false);
  }

  addFile(created: boolean): FileInfo {
    const rng = this.rng;
    const lang: Lang = rng.chance(0.12) ? "md" : rng.chance(0.2) ? "py" : "ts";
    const ext = lang === "md" ? "md" : lang;
    let rel: string;
    do
      rel = `${lang === "md" ? "docs" : rng.pick(DIRS)}/${camel(rng, rng.int(1, 2)).replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())}.${ext}`;
    while (this.files.has(rel));
    const info: FileInfo = {
      rel,
      abs: `${this.cwd}/${rel}`,
      lang,
      content: null,
      baseLines: Math.round(Math.min(2500, Math.max(15, rng.logNormal(130, 0.8)))),
      read: false,
      firstPre: undefined,
      backups: 0,
    };
    if (created) info.baseLines = 0;
    this.files.set(rel, info);
    return info;
  }

  /** Content on disk, generating an untouched file's base text on first use. */
  text(f: FileInfo): string | null {
    if (f.content === null && f.baseLines > 0) {
      f.content = makeFile(this.rng, f.lang, f.baseLines);
      f.baseLines = -1; // generated
    }
    return f.content;
  }

  tick(lo: number, hi: number): string {
    this.t += this.rng.int(lo, hi);
    return new Date(this.t).toISOString();
  }

  push(kind: string, record: Record<string, unknown>): void {
    const line = JSON.stringify(record);
    this.lines.push(line);
    const n = Buffer.byteLength(line) + 1;
    this.bytes += n;
    this.mix[kind] = (this.mix[kind] ?? 0) + n;
  }

  /** A user/assistant/system/progress record with the common envelope, chained to the previous one. */
  envelope(
    type: string,
    body: Record<string, unknown>,
    opts: { ts?: string; uuid?: string; chain?: boolean } = {},
  ): Record<string, unknown> {
    const uuid = opts.uuid ?? this.rng.uuid();
    const rec: Record<string, unknown> = {
      parentUuid: this.parent,
      isSidechain: false,
      userType: "external",
      cwd: this.cwd,
      sessionId: this.id,
      version: this.version,
      gitBranch: this.branch,
      slug: this.slug,
      type,
      ...body,
      uuid,
      timestamp: opts.ts ?? this.tick(50, 900),
    };
    if (opts.chain !== false) this.parent = uuid;
    return rec;
  }

  usage(output: number, fresh: number): Record<string, unknown> {
    return {
      input_tokens: this.rng.int(1, 9),
      cache_creation_input_tokens: fresh,
      cache_read_input_tokens: this.ctxTokens,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: fresh },
      output_tokens: output,
      service_tier: "standard",
      inference_geo: "not_available",
    };
  }

  hook(event: string, toolUseId: string, toolName: string): void {
    if (!this.hooks) return;
    this.push(
      "progress/hook_progress",
      this.envelope(
        "progress",
        {
          data: {
            type: "hook_progress",
            hookEvent: event,
            hookName: `${event}:${toolName}`,
            command: `entire hooks claude-code ${event.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()).slice(1)}`,
          },
          parentToolUseID: toolUseId,
          toolUseID: toolUseId,
        },
        { chain: false },
      ),
    );
  }

  snapshot(promptUuid: string, update: boolean): void {
    const backups: Record<string, unknown> = {};
    for (const f of this.files.values()) {
      if (f.firstPre === undefined) continue;
      backups[f.rel] = {
        backupFileName: `${this.rng.hex(16)}@v${f.backups}`,
        version: f.backups,
        backupTime: new Date(this.t).toISOString(),
      };
    }
    this.push("file-history-snapshot", {
      type: "file-history-snapshot",
      messageId: update ? this.rng.uuid() : promptUuid,
      snapshot: { messageId: promptUuid, trackedFileBackups: backups, timestamp: new Date(this.t).toISOString() },
      isSnapshotUpdate: update,
    });
  }

  prompt(): string {
    const rng = this.rng;
    let text = `${prose(rng, rng.int(6, 60))}`;
    if (rng.chance(0.15)) {
      const f = rng.pick([...this.files.values()]);
      text += ` See @${f.rel}.`;
    }
    if (rng.chance(0.1)) {
      const log: string[] = [];
      for (let i = rng.int(5, 40); i > 0; i--)
        log.push(`    at ${camel(rng)} (${this.cwd}/src/${camel(rng, 1)}.ts:${rng.int(1, 400)}:${rng.int(1, 80)})`);
      text += `\n\n\`\`\`\nError: ${prose(rng, 6)}\n${log.join("\n")}\n\`\`\``;
    }
    const uuid = rng.uuid();
    this.snapshot(uuid, false);
    this.push(
      "user/prompt",
      this.envelope(
        "user",
        {
          message: { role: "user", content: text },
          thinkingMetadata: { maxThinkingTokens: 31999 },
          todos: [],
          permissionMode: "default",
        },
        { uuid, ts: this.tick(20000, 600000) },
      ),
    );
    this.ctxTokens += Math.round(text.length / 4);
    return uuid;
  }

  /** One API response: streamed blocks (one record each), then the tool results. */
  apiMessage(
    calls: PlannedCall[],
    finalText: boolean,
    sidechain: null | { agentId: string; prompt: string; parentToolUseID: string } = null,
  ): void {
    const rng = this.rng;
    const msgId = `msg_01${rng.base62(22)}`;
    const requestId = `req_011C${rng.base62(18)}`;
    const blocks: Record<string, unknown>[] = [];
    if (rng.chance(sidechain ? 0.2 : 0.55)) {
      const thinking = prose(rng, rng.int(20, 350));
      blocks.push({
        type: "thinking",
        thinking,
        signature: Buffer.from(rng.hex(rng.int(300, 1400))).toString("base64"),
      });
    }
    if (finalText || rng.chance(0.5))
      blocks.push({ type: "text", text: finalText ? prose(rng, rng.int(30, 260)) : prose(rng, rng.int(5, 40)) });
    const ids: string[] = [];
    for (const c of calls) {
      const id = `toolu_01${rng.base62(22)}`;
      ids.push(id);
      blocks.push({ type: "tool_use", id, name: c.name, input: c.input });
    }
    let outChars = 0;
    for (const b of blocks) outChars += JSON.stringify(b).length;
    const finalOut = Math.max(1, Math.round(outChars / 3.6));
    const fresh = Math.max(0, this.ctxTokens - this.lastCtx);
    this.lastCtx = this.ctxTokens;
    const early = rng.int(1, 12);
    const holders: string[] = [];
    for (let i = 0; i < blocks.length; i++) {
      const last = i === blocks.length - 1;
      const message = {
        model: this.model,
        id: msgId,
        type: "message",
        role: "assistant",
        content: [blocks[i]],
        stop_reason: null,
        stop_sequence: null,
        usage: this.usage(last ? finalOut : early, fresh),
      };
      if (sidechain) {
        const uuid = rng.uuid();
        this.push(
          "progress/agent_progress",
          this.envelope(
            "progress",
            {
              data: {
                type: "agent_progress",
                agentId: sidechain.agentId,
                prompt: sidechain.prompt,
                normalizedMessages: [],
                message: { type: "assistant", message, requestId, uuid, timestamp: this.tick(100, 3000) },
              },
              toolUseID: `agent_msg_${msgId.slice(4)}`,
              parentToolUseID: sidechain.parentToolUseID,
            },
            { chain: false },
          ),
        );
        holders.push(uuid);
      } else {
        const rec = this.envelope(
          "assistant",
          { message, requestId },
          { ts: this.tick(i === 0 ? 1500 : 100, i === 0 ? 12000 : 2500) },
        );
        this.push(`assistant/${blocks[i].type as string}`, rec);
        holders.push(rec.uuid as string);
      }
    }
    this.ctxTokens += finalOut;
    // Results, in call order.
    for (let j = 0; j < calls.length; j++) {
      const call = calls[j];
      const id = ids[j];
      const holder = holders[blocks.length - calls.length + j];
      if (!sidechain) this.hook("PreToolUse", id, call.name);
      const out = call.run(id);
      const resultBlock: Record<string, unknown> = { tool_use_id: id, type: "tool_result", content: out.content };
      if (out.isError) resultBlock.is_error = true;
      const kind = out.isError ? "user/tool_result/error" : `user/tool_result/${call.name}`;
      if (sidechain) {
        const uuid = rng.uuid();
        this.push(
          `progress/agent_progress`,
          this.envelope(
            "progress",
            {
              data: {
                type: "agent_progress",
                agentId: sidechain.agentId,
                prompt: sidechain.prompt,
                normalizedMessages: [],
                message: {
                  type: "user",
                  message: { role: "user", content: [resultBlock] },
                  uuid,
                  timestamp: this.tick(50, 2000),
                  toolUseResult: out.toolUseResult,
                },
              },
              toolUseID: `agent_msg_${msgId.slice(4)}`,
              parentToolUseID: sidechain.parentToolUseID,
            },
            { chain: false },
          ),
        );
      } else {
        this.push(
          kind,
          this.envelope(
            "user",
            {
              message: { role: "user", content: [resultBlock] },
              toolUseResult: out.toolUseResult,
              sourceToolAssistantUUID: holder,
            },
            { ts: this.tick(30, 4000) },
          ),
        );
        this.hook("PostToolUse", id, call.name);
      }
      const size = typeof out.content === "string" ? out.content.length : JSON.stringify(out.content).length;
      this.ctxTokens += Math.round(size / 4);
    }
  }

  // ---- tools ----

  readable(): FileInfo[] {
    return [...this.files.values()].filter((f) => f.baseLines !== 0 || f.content !== null);
  }

  planRead(f: FileInfo): PlannedCall {
    const rng = this.rng;
    const text = this.text(f) ?? "";
    const all = linesOf(text);
    const partial = all.length > 400 && rng.chance(0.5);
    const offset = partial ? rng.int(1, all.length - 200) : 1;
    const limit = partial ? 200 : all.length;
    const input: Record<string, unknown> = { file_path: f.abs };
    if (partial) Object.assign(input, { offset, limit });
    return {
      name: "Read",
      input,
      run: () => {
        f.read = true;
        const sel = all.slice(offset - 1, offset - 1 + limit);
        return {
          content: numbered(sel, offset) + READ_REMINDER,
          toolUseResult: {
            type: "text",
            file: {
              filePath: f.abs,
              content: sel.join("\n") + (sel.length > 0 ? "\n" : ""),
              numLines: sel.length,
              startLine: offset,
              totalLines: all.length,
            },
          },
        };
      },
    };
  }

  planGrep(): PlannedCall {
    const rng = this.rng;
    const pattern = camel(rng, rng.int(1, 2));
    const contentMode = rng.chance(0.5);
    return {
      name: "Grep",
      input: contentMode ? { pattern, output_mode: "content", "-n": true } : { pattern },
      run: () => {
        const files = this.readable();
        const hits: string[] = [];
        const names = new Set<string>();
        for (let i = rng.int(0, contentMode ? 60 : 12); i > 0; i--) {
          const f = rng.pick(files);
          names.add(f.rel);
          if (contentMode) hits.push(`${f.rel}:${rng.int(1, 300)}:${codeLine(rng, f.lang, rng.int(0, 2))}`);
        }
        const filenames = [...names];
        if (contentMode) {
          return {
            content: hits.length > 0 ? hits.join("\n") : "No matches found",
            toolUseResult: {
              mode: "content",
              numFiles: filenames.length,
              filenames: [],
              content: hits.join("\n"),
              numLines: hits.length,
            },
          };
        }
        return {
          content:
            filenames.length > 0
              ? `Found ${filenames.length} file${filenames.length === 1 ? "" : "s"}\n${filenames.join("\n")}`
              : "No files found",
          toolUseResult: { mode: "files_with_matches", filenames, numFiles: filenames.length },
        };
      },
    };
  }

  planGlob(): PlannedCall {
    const rng = this.rng;
    return {
      name: "Glob",
      input: { pattern: rng.pick(["**/*.ts", "src/**/*.ts", "**/*.py", "docs/*.md", "test/**"]) },
      run: () => {
        const filenames = this.readable()
          .filter(() => rng.chance(0.6))
          .map((f) => f.abs);
        return {
          content: filenames.join("\n") || "No files found",
          toolUseResult: { filenames, durationMs: rng.int(5, 400), numFiles: filenames.length, truncated: false },
        };
      },
    };
  }

  planBash(): PlannedCall {
    const rng = this.rng;
    const command = rng.pick(BASH);
    return {
      name: "Bash",
      input: { command, description: prose(rng, rng.int(2, 6)).replace(/\.$/, "") },
      run: (id) => this.bash(id),
    };
  }

  bash(id: string): ToolOutcome {
    const rng = this.rng;
    const out: string[] = [];
    const n = rng.chance(0.3) ? rng.int(30, 200) : rng.int(0, 25);
    for (let i = 0; i < n; i++) {
      out.push(
        rng.chance(0.5)
          ? `  ${rng.chance(0.9) ? "✓" : "✗"} ${prose(rng, rng.int(3, 9))} (${rng.int(0, 300)} ms)`
          : `${camel(rng)}: ${prose(rng, rng.int(2, 10))}`,
      );
    }
    if (n > 10 && rng.chance(0.7)) {
      // Streamed output while the command runs (the whole output so far each time).
      const steps = rng.int(2, 10);
      for (let s = 1; s <= steps; s++) {
        const upto = Math.floor((out.length * s) / (steps + 1));
        const full = out.slice(0, upto).join("\n");
        this.push(
          "progress/bash_progress",
          this.envelope(
            "progress",
            {
              data: {
                type: "bash_progress",
                output: out.slice(Math.max(0, upto - 5), upto).join("\n"),
                fullOutput: full.length > 30000 ? full.slice(-30000) : full,
                elapsedTimeSeconds: s,
                totalLines: upto,
              },
              toolUseID: `bash-progress-${s - 1}`,
              parentToolUseID: id,
            },
            { ts: this.tick(900, 1100) },
          ),
        );
      }
    }
    const stdout = out.join("\n");
    if (rng.chance(0.12)) {
      const msg = `Error: Exit code 1\n${stdout}`;
      return { content: msg, isError: true, toolUseResult: msg };
    }
    return {
      content: stdout || "(Bash completed with no output)",
      toolUseResult: {
        stdout,
        stderr: "",
        interrupted: false,
        isImage: false,
        ...(stdout === "" ? { noOutputExpected: false } : {}),
      },
    };
  }

  /** Marks a successful agent change of `f` (pre → post). */
  changed(f: FileInfo, pre: string, post: string): void {
    if (f.firstPre === undefined) {
      f.firstPre = pre;
      f.backups = 1;
    } else f.backups++;
    f.content = post;
    f.read = true;
    this.ctxTokens += Math.round(post.length / 40);
  }

  planEdit(f: FileInfo): PlannedCall {
    const rng = this.rng;
    const text = this.text(f)!;
    const kind = rng.weighted({ ok: 90, notFound: 3, modifiedSinceRead: 3, rejected: 1.5, multiple: 1.5 });
    if (kind === "modifiedSinceRead") {
      // Someone (a person, a formatter) changes the file: the agent's edit fails, it reads again, then edits.
      const human = regionEdit(rng, text, f.lang, "modify");
      if (human) {
        f.content = human.after;
        f.read = false;
        this.forced.push(
          () => this.planRead(f),
          () => this.planEdit(f),
        );
      }
    }
    const edit = regionEdit(rng, text, f.lang);
    if (!edit) return this.planRead(f);
    const input = { file_path: f.abs, old_string: edit.oldString, new_string: edit.newString, replace_all: false };
    if (kind === "notFound") input.old_string = edit.oldString.replace(/[a-z]\b/, "x") + " ";
    return {
      name: "Edit",
      input,
      run: () => {
        switch (kind) {
          case "notFound":
            return err(`String to replace not found in file.\nString: ${input.old_string}`);
          case "multiple":
            return err(
              `Found 2 matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${input.old_string}`,
            );
          case "rejected":
            return {
              content:
                "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
              isError: true,
              toolUseResult: "User rejected tool use",
            };
          case "modifiedSinceRead":
            if (!f.read)
              return err(
                "File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.",
              );
        }
        const pre = f.content!;
        // `text` was the content when planned; an edit planned on it applies to the current content.
        if (pre !== text)
          return err(
            "File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.",
          );
        this.changed(f, pre, edit.after);
        const post = linesOf(edit.after);
        const s0 = Math.max(0, edit.at - 4);
        const s1 = Math.min(post.length, edit.at + edit.added + 4);
        return {
          content: `The file ${f.abs} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(post.slice(s0, s1), s0 + 1)}`,
          toolUseResult: {
            filePath: f.abs,
            oldString: edit.oldString,
            newString: edit.newString,
            originalFile: pre,
            structuredPatch: [edit.hunk],
            userModified: false,
            replaceAll: false,
          },
        };
      },
    };
  }

  planMultiEdit(f: FileInfo): PlannedCall {
    const rng = this.rng;
    const original = this.text(f)!;
    let text = original;
    const edits: { old_string: string; new_string: string; replace_all: boolean }[] = [];
    for (let n = rng.int(2, 4); n > 0; n--) {
      const e = regionEdit(rng, text, f.lang, rng.chance(0.5) ? "modify" : "insert");
      if (!e) continue;
      edits.push({ old_string: e.oldString, new_string: e.newString, replace_all: false });
      text = e.after;
    }
    if (edits.length === 0) return this.planRead(f);
    const after = text;
    return {
      name: "MultiEdit",
      input: { file_path: f.abs, edits: edits.map(({ old_string, new_string }) => ({ old_string, new_string })) },
      run: () => {
        if (f.content !== original)
          return err(
            "File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.",
          );
        this.changed(f, original, after);
        return {
          content: `Applied ${edits.length} edits to ${f.abs}:\n${edits.map((e, i) => `${i + 1}. Replaced "${e.old_string.slice(0, 40)}..." with "${e.new_string.slice(0, 40)}..."`).join("\n")}`,
          toolUseResult: {
            filePath: f.abs,
            edits,
            originalFileContents: original,
            structuredPatch: hunksOf(original, after),
            userModified: false,
          },
        };
      },
    };
  }

  planWriteCreate(outside = false): PlannedCall {
    const rng = this.rng;
    let f: FileInfo;
    if (outside) {
      const abs = `${this.home}/.claude/plans/${this.slug}.md`;
      f = this.files.get(abs) ?? {
        rel: abs,
        abs,
        lang: "md",
        content: null,
        baseLines: 0,
        read: true,
        firstPre: undefined,
        backups: 0,
      };
      this.files.set(abs, f);
    } else f = this.addFile(true);
    const content = makeFile(rng, f.lang, Math.round(Math.min(600, Math.max(8, rng.logNormal(70, 0.7)))));
    const existed = f.content !== null;
    return {
      name: "Write",
      input: { file_path: f.abs, content },
      run: () => {
        const pre = f.content;
        this.changed(f, pre ?? "", content);
        if (existed && pre !== null) {
          return {
            content: `The file ${f.abs} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(linesOf(content).slice(0, 20), 1)}`,
            toolUseResult: {
              type: "update",
              filePath: f.abs,
              content,
              structuredPatch: hunksOf(pre, content),
              originalFile: pre,
            },
          };
        }
        return {
          content: `File created successfully at: ${f.abs}`,
          toolUseResult: { type: "create", filePath: f.abs, content, structuredPatch: [], originalFile: null },
        };
      },
    };
  }

  planWriteUpdate(f: FileInfo): PlannedCall {
    const rng = this.rng;
    const original = this.text(f)!;
    let text = original;
    for (let n = rng.int(2, 6); n > 0; n--) text = regionEdit(rng, text, f.lang)?.after ?? text;
    const content = text;
    return {
      name: "Write",
      input: { file_path: f.abs, content },
      run: () => {
        if (f.content !== original)
          return err(
            "File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.",
          );
        this.changed(f, original, content);
        return {
          content: `The file ${f.abs} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(linesOf(content).slice(0, 20), 1)}`,
          toolUseResult: {
            type: "update",
            filePath: f.abs,
            content,
            structuredPatch: hunksOf(original, content),
            originalFile: original,
          },
        };
      },
    };
  }

  planTodo(): PlannedCall {
    const rng = this.rng;
    const todos = Array.from({ length: rng.int(2, 7) }, () => ({
      content: prose(rng, rng.int(3, 10)),
      status: rng.pick(["pending", "in_progress", "completed"]),
      activeForm: prose(rng, rng.int(3, 8)),
    }));
    return {
      name: "TodoWrite",
      input: { todos },
      run: () => ({
        content:
          "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.",
        toolUseResult: { oldTodos: [], newTodos: todos },
      }),
    };
  }

  planTask(): PlannedCall {
    const rng = this.rng;
    const prompt = prose(rng, rng.int(20, 120));
    const description = prose(rng, rng.int(2, 5)).replace(/\.$/, "");
    const agentId = rng.hex(7);
    return {
      name: "Task",
      input: { description, prompt, subagent_type: rng.pick(["general-purpose", "Explore", "reviewer"]) },
      run: (id) => this.task(agentId, prompt, id),
    };
  }

  /** A sub-agent's messages, mirrored as agent_progress records, then the Task result. */
  task(agentId: string, prompt: string, id: string): ToolOutcome {
    const rng = this.rng;
    const side = { agentId, prompt, parentToolUseID: id };
    const uuid = rng.uuid();
    this.push(
      "progress/agent_progress",
      this.envelope(
        "progress",
        {
          data: {
            type: "agent_progress",
            agentId,
            prompt,
            normalizedMessages: [],
            message: {
              type: "user",
              message: { role: "user", content: [{ type: "text", text: prompt }] },
              uuid,
              timestamp: this.tick(50, 300),
            },
          },
          toolUseID: `agent_msg_${rng.base62(24)}`,
          parentToolUseID: id,
        },
        { chain: false },
      ),
    );
    let toolUses = 0;
    const steps = rng.int(2, 8);
    for (let s = 0; s < steps; s++) {
      const files = this.readable();
      const read = files.filter((f) => f.read && f.content !== null && f.rel.startsWith("/") === false);
      let c: PlannedCall;
      if (read.length > 0 && rng.chance(0.45)) c = this.planEdit(rng.pick(read));
      else if (rng.chance(0.7)) c = this.planRead(rng.pick(files));
      else c = this.planGrep();
      this.forced.length = 0; // a sub-agent does not leave follow-ups to the parent
      this.apiMessage([c], false, side);
      toolUses++;
    }
    const text = prose(rng, rng.int(40, 300));
    const totalTokens = rng.int(5000, 90000);
    return {
      content: [{ type: "text", text }],
      toolUseResult: {
        status: "completed",
        prompt,
        agentId,
        content: [{ type: "text", text }],
        totalDurationMs: rng.int(5000, 300000),
        totalTokens,
        totalToolUseCount: toolUses,
        usage: {
          input_tokens: rng.int(10, 90),
          cache_creation_input_tokens: rng.int(1000, 20000),
          cache_read_input_tokens: totalTokens,
          output_tokens: rng.int(300, 5000),
        },
      },
    };
  }

  step(): void {
    const rng = this.rng;
    const forced = this.forced.shift();
    if (forced) {
      const c = forced();
      if (c) {
        this.apiMessage([c], false);
        return;
      }
    }
    const files = [...this.files.values()].filter((f) => !f.rel.startsWith("/"));
    const unread = files.filter((f) => !f.read && (f.baseLines !== 0 || f.content !== null));
    const read = files.filter((f) => f.read && f.content !== null);
    const action = rng.weighted({
      read: unread.length > 0 ? 20 : 5,
      grep: 7,
      glob: 2.5,
      bash: 16,
      edit: read.length > 0 ? 24 : 0,
      multi: read.length > 0 ? 1.2 : 0,
      create: 4,
      update: read.length > 0 ? 1.5 : 0,
      todo: 3,
      task: this.tasks < 2 ? 1.6 : 0,
      plan: 0.3,
    });
    const calls: PlannedCall[] = [];
    switch (action) {
      case "read":
        calls.push(this.planRead(rng.pick(unread.length > 0 ? unread : files)));
        while (calls.length < 4 && rng.chance(0.2))
          calls.push(rng.chance(0.6) ? this.planRead(rng.pick(files)) : this.planGrep());
        break;
      case "grep":
        calls.push(this.planGrep());
        while (calls.length < 3 && rng.chance(0.25)) calls.push(this.planGrep());
        break;
      case "glob":
        calls.push(this.planGlob());
        break;
      case "bash":
        calls.push(this.planBash());
        break;
      case "edit":
        calls.push(this.planEdit(rng.pick(read)));
        break;
      case "multi":
        calls.push(this.planMultiEdit(rng.pick(read)));
        break;
      case "create":
        calls.push(this.planWriteCreate());
        break;
      case "update":
        calls.push(this.planWriteUpdate(rng.pick(read)));
        break;
      case "todo":
        calls.push(this.planTodo());
        break;
      case "task":
        this.tasks++;
        calls.push(this.planTask());
        break;
      case "plan":
        calls.push(this.planWriteCreate(true));
        break;
    }
    this.apiMessage(calls, false);
  }

  endTurn(): void {
    this.apiMessage([], true);
    if (this.hooks) {
      this.push(
        "system",
        this.envelope("system", {
          subtype: "stop_hook_summary",
          hookCount: 1,
          hookInfos: [{ command: "entire hooks claude-code stop" }],
          hookErrors: [],
          preventedContinuation: false,
          stopReason: "",
          hasOutput: true,
          level: "suggestion",
          toolUseID: this.rng.uuid(),
        }),
      );
    }
    this.push(
      "system",
      this.envelope("system", { subtype: "turn_duration", durationMs: this.rng.int(5000, 900000), isMeta: false }),
    );
  }

  /** The person's commit: the agent's final files, a few lines changed, some files dropped or reverted. */
  commit(): { path: string; patch: string }[] {
    const rng = this.rng;
    const out: { path: string; patch: string }[] = [];
    for (const f of this.files.values()) {
      if (f.firstPre === undefined || f.rel.startsWith("/") || f.content === null) continue;
      if (rng.chance(0.07)) continue; // scratch file, not committed
      let text = rng.chance(0.04) ? f.firstPre : f.content; // agent's work thrown away
      const changes = rng.weighted({ none: 35, few: 50, many: 15 });
      const n = changes === "none" ? 0 : changes === "few" ? rng.int(1, 3) : rng.int(4, 10);
      for (let i = 0; i < n; i++) {
        const e = regionEdit(rng, text, f.lang, rng.weighted({ modify: 60, insert: 25, remove: 15 }));
        if (e) text = e.after;
      }
      if (text === f.firstPre) continue;
      out.push({ path: f.rel, patch: unifiedDiff(f.rel, f.firstPre, text) });
    }
    if (rng.chance(0.1)) {
      // A file the agent never touched: its base is unknown to the log.
      const added = Array.from({ length: rng.int(1, 6) }, () => `- ${prose(rng, rng.int(4, 12))}`);
      out.push({
        path: "CHANGELOG.md",
        patch: `diff --git a/CHANGELOG.md b/CHANGELOG.md\n--- a/CHANGELOG.md\n+++ b/CHANGELOG.md\n@@ -1,3 +1,${3 + added.length} @@\n # Changelog\n \n+${added.join("\n+")}\n ## 0.${rng.int(1, 9)}.0\n`,
      });
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}

function err(message: string): ToolOutcome {
  return { content: `<tool_use_error>${message}</tool_use_error>`, isError: true, toolUseResult: `Error: ${message}` };
}

/** Where a session happens: its project folder (`~/work/<project>`, worktrees kept) and its first record's time. */
export interface SessionPlace {
  project?: string;
  startMs?: number;
}

/** One session: its transcript text and commit. Deterministic in (seed, index, place). */
export function generateSession(
  seed: number,
  index: number,
  mix: Record<string, number> = {},
  place: SessionPlace = {},
): GeneratedSession {
  const rng = new Rng((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const s = new SessionWriter(rng, mix, place);
  const target = Math.min(3 * 1048576, Math.max(6000, rng.logNormal(150000, 0.9)));
  if (s.hooks) {
    s.push(
      "progress/hook_progress",
      s.envelope("progress", {
        data: {
          type: "hook_progress",
          hookEvent: "SessionStart",
          hookName: "SessionStart:startup",
          command: "entire hooks claude-code session-start",
        },
        parentToolUseID: rng.uuid(),
        toolUseID: rng.uuid(),
      }),
    );
  }
  let turns = 0;
  while (s.bytes < target || turns === 0) {
    s.prompt();
    turns++;
    const steps = rng.int(2, 28);
    for (let i = 0; i < steps && s.bytes < target; i++) s.step();
    while (s.forced.length > 0) s.step();
    s.endTurn();
  }
  return { id: s.id, cwd: s.cwd, text: s.lines.join("\n") + "\n", commit: s.commit() };
}

export interface GeneratedSession {
  id: string;
  cwd: string;
  text: string;
  /** The person's commit as per-file unified diffs, from the log's first pre-image of each file. */
  commit: { path: string; patch: string }[];
}
