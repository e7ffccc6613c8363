/**
 * Reading Entire repositories and linking units (metrics.md §1), on REAL git
 * repositories built in a temporary folder: code commits with
 * `Entire-Checkpoint:` trailers on several branches, an orphan
 * `entire/checkpoints/v1` branch and `refs/entire/checkpoints/<shard>/<id>`
 * refs written with git plumbing. Metadata is synthesized here; further
 * suites copy real checkpoint folders from test/fixtures (and, for the
 * entireio/external-agents ones, from ../shared/corpus, skipped where it is
 * absent) at run time, and the last reads the real entireio/external-agents
 * mirror when it is present.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { DiagnosticSink } from "../../src/model";
import {
  addAmbiguity,
  isEntireRepository,
  joinTranscriptParts,
  linkUnits,
  normaliseSessionId,
  readEntireRepository,
  type CandidateUnit,
  type EntireRepository,
} from "../../src/ingest/entire";
import { findEntireRefs } from "../../src/ingest/entire/paths";
import { openRepository } from "../../src/ingest/git/repo";
import { corpusPath, EXTERNAL_AGENTS_MIRROR, sharedCorpusPath, sharedCorpusSkip } from "../helpers/corpus";
import { GitSandbox } from "../helpers/git-sandbox";

const T0 = 1_750_000_000;

class Sandbox extends GitSandbox {
  constructor(root: string) {
    super(root, T0);
  }
}

/** Writes `files` (path → content) as a tree with plumbing and a private index; returns the tree id. */
function writeTree(box: Sandbox, repo: string, files: Record<string, string | Buffer>): string {
  const index = join(box.root, `index-${Math.random().toString(36).slice(2)}`);
  const lines: string[] = [];
  for (const [path, content] of Object.entries(files)) {
    const blob = box.git(repo, ["hash-object", "-w", "--stdin"], content).trim();
    lines.push(`100644 blob ${blob}\t${path}`);
  }
  box.git(repo, ["update-index", "--add", "--index-info"], lines.join("\n") + "\n", { GIT_INDEX_FILE: index });
  const tree = box.git(repo, ["write-tree"], undefined, { GIT_INDEX_FILE: index }).trim();
  rmSync(index, { force: true });
  return tree;
}

function commitTree(box: Sandbox, repo: string, tree: string, message: string, parents: string[] = []): string {
  return box.git(repo, ["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-m", message], "").trim();
}

interface SessionSpec {
  meta: Record<string, unknown> | string | null; // string: raw (invalid) JSON; null: no metadata.json
  transcript?: string | null; // content of full.jsonl; null: none
  extra?: Record<string, string>; // more files in the session folder
}

function sessionMeta(
  checkpoint: string,
  sessionId: string,
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    cli_version: "0.5.5",
    checkpoint_id: checkpoint,
    session_id: sessionId,
    strategy: "manual-commit",
    created_at: "2026-04-24T00:13:27.752496Z",
    branch: "work",
    checkpoints_count: 1,
    files_touched: ["src/app.ts"],
    agent: "Claude Code",
    token_usage: {
      input_tokens: 10,
      cache_creation_tokens: 20,
      cache_read_tokens: 30,
      output_tokens: 40,
      api_call_count: 5,
    },
    initial_attribution: {
      calculated_at: "2026-04-24T00:13:27.7Z",
      agent_lines: 12,
      human_added: 1,
      human_modified: 0,
      human_removed: 2,
      total_committed: 13,
      agent_percentage: 92.3,
    },
    ...more,
  };
}

/** The files of one checkpoint folder, relative to the folder. */
function checkpointFiles(
  id: string,
  sessions: SessionSpec[],
  summary: Record<string, unknown> = {},
): Record<string, string> {
  const files: Record<string, string> = {};
  const folder = `/${id.slice(0, 2)}/${id.slice(2)}`;
  files["metadata.json"] = JSON.stringify({
    cli_version: "0.5.5",
    checkpoint_id: id,
    strategy: "manual-commit",
    branch: "work",
    checkpoints_count: sessions.length,
    files_touched: ["src/app.ts"],
    sessions: sessions.map((_, i) => ({
      metadata: `${folder}/${i}/metadata.json`,
      transcript: `${folder}/${i}/full.jsonl`,
    })),
    token_usage: {
      input_tokens: 100,
      cache_creation_tokens: 0,
      cache_read_tokens: 7,
      output_tokens: 9,
      api_call_count: 3,
    },
    ...summary,
  });
  sessions.forEach((s, i) => {
    if (s.meta !== null) files[`${i}/metadata.json`] = typeof s.meta === "string" ? s.meta : JSON.stringify(s.meta);
    if (s.transcript != null) files[`${i}/full.jsonl`] = s.transcript;
    for (const [name, content] of Object.entries(s.extra ?? {})) files[`${i}/${name}`] = content;
  });
  return files;
}

const prefixed = (id: string, files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([p, c]) => [`${id.slice(0, 2)}/${id.slice(2)}/${p}`, c]));

// Checkpoint ids (12 hex) and session ids of the synthetic fixture.
const CP = {
  A: "a10000000001", // one session, one commit: unambiguous
  B: "b20000000002", // two sessions → multi-session-checkpoint
  C: "c30000000003", // S4 …
  D: "d40000000004", // … and S4 again → multi-checkpoint-session
  E: "e50000000005", // commit + its cherry-picked copy: one unit on the earlier copy
  F: "f60000000006", // on two different commits → multi-commit-checkpoint
  G: "a70000000007", // two sessions, on a merge AND another commit; S14 also in Q
  H: "b80000000008", // only mentioned in a squash body → on no commit
  I: "c90000000009", // old dated session id of UUID_X
  J: "d0000000000a", // UUID_X undated → with I: multi-checkpoint-session through normalisation
  K: "e1000000000b", // no transcript
  M: "f2000000000c", // in a ref AND on the branch with other content: the ref wins
  N: "a3000000000d", // compact transcript.jsonl only
  O: "b4000000000e", // bad metadata: invalid JSON, a wrong-typed field
  P: "c5000000000f", // linked through a lower-case trailer key
  Q: "d60000000010", // holds S14, on no commit
  R: "e70000000011", // chunked full.jsonl + full.jsonl.001
};
const ULID = "01KVBJCWYA4YW6J5M9GP655HZN"; // a git-refs checkpoint: refs/entire/checkpoints/ZN/<ULID>
const UUID_X = "f7633853-6663-4dbb-bbf4-6159afa29df8";
const S = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("Entire repository: synthetic fixture", () => {
  let box: Sandbox;
  let dir: string;
  let er: EntireRepository;
  const sink = new DiagnosticSink("entire");
  const sha: Record<string, string> = {};
  let units: CandidateUnit[] = [];
  const linkSink = new DiagnosticSink("entire");

  before(async () => {
    box = new Sandbox(mkdtempSync(join(tmpdir(), "sce-entire-")));
    dir = join(box.root, "work");
    mkdirSync(dir);
    const g = (args: string[], input?: string) => box.git(dir, args, input);
    let n = 0;
    const commit = (name: string, message: string, file = `file-${++n}.txt`) => {
      writeFileSync(join(dir, file), `${name}\n`);
      g(["add", file]);
      g(["commit", "-q", "-m", message]);
      sha[name] = g(["rev-parse", "HEAD"]).trim();
    };
    const trailer = (id: string) => `\n\nEntire-Checkpoint: ${id}`;

    g(["init", "-q"]);
    commit("base", "base");
    commit("cA", "feature A" + trailer(CP.A));
    commit("cC", "C" + trailer(CP.C));
    commit("cD", "D" + trailer(CP.D));
    commit("cE", "E adds a new file" + trailer(CP.E), "e-only.txt");
    commit("cF1", "F first" + trailer(CP.F));
    commit("cG2", "G plain" + trailer(CP.G));
    // a squash-merge body that mentions H in the middle; its last paragraph is a trailer block without it
    commit(
      "cS",
      `squash (#7)\n\n* part one\n\nEntire-Checkpoint: ${CP.H}\n\n* part two\n\nCo-authored-by: Bob <bob@example.com>`,
    );
    commit("cI", "I" + trailer(CP.I));
    commit("cJ", "J" + trailer(CP.J));
    commit("cK", "K" + trailer(CP.K));
    commit("cL", "L" + trailer(ULID));
    commit("cM", "M" + trailer(CP.M));
    commit("cN", "N" + trailer(CP.N));
    commit("cO", "O" + trailer(CP.O));
    commit("cP", `P\n\nentire-checkpoint: ${CP.P}`);
    commit("cR", "R" + trailer(CP.R));
    commit("cU", "unknown" + trailer("ffffffffffff"));

    // feature branch: B, and F again on a different change
    g(["checkout", "-q", "-b", "feature", sha.base]);
    commit("cB", "B" + trailer(CP.B));
    commit("cF2", "F second, other change" + trailer(CP.F));
    // feature2 merged into main by a merge commit carrying G
    g(["checkout", "-q", "-b", "feature2", sha.base]);
    commit("side", "side work");
    g(["checkout", "-q", "main"]);
    g(["merge", "-q", "--no-ff", "feature2", "-m", "merge feature2" + trailer(CP.G)]);
    sha.cMerge = g(["rev-parse", "HEAD"]).trim();
    // release branch gets a cherry-picked copy of cE: same patch id, later committer time
    g(["checkout", "-q", "-b", "release", sha.base]);
    g(["cherry-pick", sha.cE]);
    sha.cE2 = g(["rev-parse", "HEAD"]).trim();
    g(["checkout", "-q", "main"]);

    // An Entire shadow branch whose commit carries A's trailer: not code history, must not make A multi-commit.
    const shadowTree = writeTree(box, dir, { "x.txt": "shadow\n" });
    sha.shadow = commitTree(box, dir, shadowTree, "shadow" + trailer(CP.A));
    g(["update-ref", "refs/heads/entire/abc1234-def456", sha.shadow]);

    // The checkpoints branch (two commits, as Entire appends).
    const sess = (
      cp: string,
      id: string,
      more: Record<string, unknown> = {},
      transcript: string | null = `{"n":1}\n{"n":2}\n`,
    ) => ({ meta: sessionMeta(cp, id, more), transcript }) as SessionSpec;
    const branchFiles: Record<string, string> = {
      "README.md": "a stray file at the branch root\n",
      ...prefixed(
        CP.A,
        checkpointFiles(CP.A, [sess(CP.A, S(1), { checkpoint_transcript_start: 1, transcript_lines_at_start: 1 })]),
      ),
      ...prefixed(
        CP.B,
        checkpointFiles(CP.B, [sess(CP.B, S(2)), sess(CP.B, S(3), { agent: "Codex", model: "gpt-5.4" })]),
      ),
      ...prefixed(CP.C, checkpointFiles(CP.C, [sess(CP.C, S(4))])),
      ...prefixed(CP.D, checkpointFiles(CP.D, [sess(CP.D, S(4), { transcript_lines_at_start: 7 })])),
      ...prefixed(CP.E, checkpointFiles(CP.E, [sess(CP.E, S(6))])),
      ...prefixed(CP.F, checkpointFiles(CP.F, [sess(CP.F, S(7))])),
      ...prefixed(CP.G, checkpointFiles(CP.G, [sess(CP.G, S(8)), sess(CP.G, S(14))])),
      ...prefixed(CP.H, checkpointFiles(CP.H, [sess(CP.H, S(9))])),
      ...prefixed(
        CP.I,
        checkpointFiles(CP.I, [
          sess(CP.I, `2026-01-15-${UUID_X}`, {
            files_touched: null,
            strategy: "auto-commit",
            agent: undefined,
            initial_attribution: undefined,
            token_usage: undefined,
          }),
        ]),
      ),
      ...prefixed(CP.J, checkpointFiles(CP.J, [sess(CP.J, UUID_X)])),
      ...prefixed(CP.K, checkpointFiles(CP.K, [sess(CP.K, S(10), {}, null)])),
      // M on the branch says "Claude Code"; the ref copy says "Codex" and must win.
      ...prefixed(CP.M, checkpointFiles(CP.M, [sess(CP.M, S(12))])),
      ...prefixed(
        CP.N,
        checkpointFiles(CP.N, [
          {
            meta: sessionMeta(CP.N, S(15), { compact_transcript_start: 3, checkpoint_transcript_start: 10 }),
            transcript: null,
            extra: { "transcript.jsonl": "c1\nc2\nc3\nc4\n" },
          },
        ]),
      ),
      ...prefixed(
        CP.O,
        checkpointFiles(CP.O, [
          { meta: "{ not json", transcript: "x\n" },
          {
            meta: sessionMeta(CP.O, S(16), { token_usage: "lots", checkpoint_transcript_start: -4 }),
            transcript: "y\n",
          },
        ]),
      ),
      ...prefixed(CP.P, checkpointFiles(CP.P, [sess(CP.P, S(13))])),
      ...prefixed(CP.Q, checkpointFiles(CP.Q, [sess(CP.Q, S(14))])),
      ...prefixed(
        CP.R,
        checkpointFiles(CP.R, [
          {
            meta: sessionMeta(CP.R, S(17)),
            transcript: `{"part":1}\n{"part":2}`,
            extra: { "full.jsonl.001": `{"part":3}\n{"part":4}`, "full.jsonl.002": `{"part":5}` },
          },
        ]),
      ),
    };
    const firstTree = writeTree(box, dir, { [`${CP.A.slice(0, 2)}/${CP.A.slice(2)}/metadata.json`]: "{}" });
    const first = commitTree(box, dir, firstTree, `Checkpoint: ${CP.A}`);
    const tip = commitTree(box, dir, writeTree(box, dir, branchFiles), `Checkpoint: ${CP.R}`, [first]);
    g(["update-ref", "refs/heads/entire/checkpoints/v1", tip]);

    // Per-checkpoint refs: the tree root IS the checkpoint folder.
    const refTree = writeTree(box, dir, checkpointFiles(ULID, [sess(ULID, S(11), { agent: "Gemini CLI" })]));
    g([
      "update-ref",
      `refs/entire/checkpoints/${ULID.slice(-2)}/${ULID}`,
      commitTree(box, dir, refTree, `Checkpoint: ${ULID}`),
    ]);
    const mTree = writeTree(box, dir, checkpointFiles(CP.M, [sess(CP.M, S(12), { agent: "Codex" })]));
    g([
      "update-ref",
      `refs/entire/checkpoints/${CP.M.slice(-2)}/${CP.M}`,
      commitTree(box, dir, mTree, `Checkpoint: ${CP.M}`),
    ]);
    // a ref that is not <shard>/<id>
    g(["update-ref", "refs/entire/checkpoints/bogus", sha.base]);

    const opened = await readEntireRepository(dir, sink);
    assert.ok(opened, "the fixture is an Entire repository");
    er = opened;
    units = linkUnits(er.checkpoints, er.commits, linkSink);
  });

  after(async () => {
    await er?.close();
    if (box) rmSync(box.root, { recursive: true, force: true });
  });

  const codes = (s: DiagnosticSink) => {
    const m: Record<string, number> = {};
    for (const d of s.rows) m[d.code] = (m[d.code] ?? 0) + 1;
    return m;
  };
  const cp = (id: string) => er.checkpoints.find((c) => c.checkpoint_id === id)!;

  test("recognises Entire repositories and nothing else", async () => {
    assert.equal(await isEntireRepository(dir), true);
    const plain = join(box.root, "plain");
    mkdirSync(plain);
    box.git(plain, ["init", "-q"]);
    assert.equal(await isEntireRepository(plain), false, "a git repository without Entire refs");
    assert.equal(await readEntireRepository(plain, new DiagnosticSink("entire")), null);
    assert.equal(await isEntireRepository(join(box.root, "home")), false, "not a git repository");
  });

  test("lists every checkpoint once: refs first, then the branch", () => {
    const ids = er.checkpoints.map((c) => c.checkpoint_id);
    // 17 on the branch + the ULID ref (M is on both and counted once)
    assert.deepEqual(ids, [...Object.values(CP), ULID].sort());
    assert.equal(er.sources.get(ULID)!.backend, "refs");
    assert.equal(er.sources.get(CP.M)!.backend, "refs");
    assert.equal(er.sources.get(CP.A)!.backend, "branch");
    assert.equal(cp(CP.M).sessions[0].agent_label, "Codex", "the ref's copy wins over the branch's");
    assert.equal(cp(ULID).sessions[0].agent_label, "Gemini CLI");
    assert.equal(
      er.checkpoints.reduce((n, c) => n + c.sessions.length, 0),
      21,
    );
  });

  test("parses checkpoint and session metadata into the model", () => {
    const a = cp(CP.A);
    assert.deepEqual(a.token_usage, {
      input_tokens: 100,
      output_tokens: 9,
      cache_creation_tokens: 0,
      cache_read_tokens: 7,
      api_call_count: 3,
    });
    assert.deepEqual(a.sessions[0], {
      index: 0,
      session_id: S(1),
      recorded_session_id: S(1),
      agent_label: "Claude Code",
      model: null,
      branch: "work",
      created_at: "2026-04-24T00:13:27.752496Z",
      transcript_path: `a1/0000000001/0/full.jsonl`,
      transcript_start: 1,
      files_touched: ["src/app.ts"],
      initial_attribution: {
        agent_lines: 12,
        human_added: 1,
        human_modified: 0,
        human_removed: 2,
        total_committed: 13,
        agent_percentage: 92.3,
      },
      token_usage: {
        input_tokens: 10,
        output_tokens: 40,
        cache_creation_tokens: 20,
        cache_read_tokens: 30,
        api_call_count: 5,
      },
    });
    assert.equal(cp(CP.B).sessions[1].model, "gpt-5.4");
    // old name transcript_lines_at_start; absent both → 0
    assert.equal(cp(CP.D).sessions[0].transcript_start, 7);
    assert.equal(cp(CP.C).sessions[0].transcript_start, 0);
    // the dated id is normalised; files_touched null → []; no attribution, no tokens, no agent
    const i = cp(CP.I).sessions[0];
    assert.deepEqual(
      [i.session_id, i.files_touched, i.initial_attribution, i.token_usage, i.agent_label],
      [UUID_X, [], null, null, null],
    );
    // compact transcript only: its own start offset
    const nn = cp(CP.N).sessions[0];
    assert.deepEqual([nn.transcript_path, nn.transcript_start], ["a3/000000000d/0/transcript.jsonl", 3]);
    // refs-backed checkpoints name their transcript with the same sharded path
    assert.equal(cp(ULID).sessions[0].transcript_path, `01/KVBJCWYA4YW6J5M9GP655HZN/0/full.jsonl`);
  });

  test("bad metadata becomes diagnostics, never an exception", () => {
    const o = cp(CP.O);
    assert.equal(o.sessions.length, 2, "both folders still count");
    assert.equal(o.sessions[0].session_id, `unknown:${CP.O}/0`);
    assert.equal(o.sessions[1].session_id, S(16));
    assert.equal(o.sessions[1].token_usage, null, "the wrong-typed field is dropped");
    assert.equal(o.sessions[1].transcript_start, 0, "a negative start is dropped");
    assert.equal(o.sessions[1].initial_attribution?.agent_lines, 12, "the other fields survive");
    const k = cp(CP.K).sessions[0];
    assert.equal(k.transcript_path, null);

    assert.deepEqual(codes(sink), {
      "entire-ref-malformed": 1, // refs/entire/checkpoints/bogus
      "entire-checkpoint-duplicate": 1, // M: ref and branch differ
      "entire-branch-stray-files": 1, // README.md at the branch root
      "entire-metadata-invalid": 1, // O/0: not JSON
      "entire-session-id-missing": 1, // O/0
      "entire-metadata-field-invalid": 2, // O/1: token_usage, checkpoint_transcript_start
      "entire-transcript-missing": 1, // K
      "entire-transcript-compact-only": 1, // N
    });
    const missing = sink.rows.find((d) => d.code === "entire-transcript-missing")!;
    assert.equal(missing.session_id, S(10));
    assert.equal(missing.file, `refs/heads/entire/checkpoints/v1:e1/000000000b/0/full.jsonl`);
  });

  test("commits: every trailer-carrying commit of every code branch, with patch ids", () => {
    const bySha = new Map(er.commits.map((c) => [c.sha, c]));
    const expected = [
      "cA",
      "cC",
      "cD",
      "cE",
      "cF1",
      "cG2",
      "cI",
      "cJ",
      "cK",
      "cL",
      "cM",
      "cN",
      "cO",
      "cP",
      "cR",
      "cU",
      "cB",
      "cF2",
      "cMerge",
      "cE2",
    ];
    assert.deepEqual(new Set(er.commits.map((c) => c.sha)), new Set(expected.map((n) => sha[n])));
    assert.equal(er.commits.length, expected.length);
    assert.equal(bySha.has(sha.cS), false, "the squash body's mention is not a trailer");
    assert.equal(bySha.has(sha.shadow), false, "Entire's shadow branch is not code history");
    assert.equal(bySha.get(sha.cE)!.patch_id, bySha.get(sha.cE2)!.patch_id);
    assert.ok(bySha.get(sha.cE)!.patch_id);
    assert.notEqual(bySha.get(sha.cF1)!.patch_id, bySha.get(sha.cF2)!.patch_id);
    assert.equal(bySha.get(sha.cMerge)!.patch_id, null);
    assert.ok(bySha.get(sha.cE2)!.committer_time > bySha.get(sha.cE)!.committer_time);
    assert.deepEqual(bySha.get(sha.cP)!.checkpoint_ids, [CP.P]);
  });

  test("linkUnits: units, chosen commits and ambiguity reasons (§1 order)", () => {
    const key = (u: CandidateUnit) =>
      `${u.checkpoint_id}/${u.session_index}@${Object.keys(sha).find((n) => sha[n] === u.commit_sha)}`;
    const got = Object.fromEntries(units.map((u) => [key(u), u.ambiguity_reasons.join(",")]));
    assert.deepEqual(got, {
      [`${CP.A}/0@cA`]: "",
      [`${CP.B}/0@cB`]: "multi-session-checkpoint",
      [`${CP.B}/1@cB`]: "multi-session-checkpoint",
      [`${CP.C}/0@cC`]: "multi-checkpoint-session",
      [`${CP.D}/0@cD`]: "multi-checkpoint-session",
      // the copy on release is later: the unit's commit is the original
      [`${CP.E}/0@cE`]: "",
      [`${CP.F}/0@cF1`]: "multi-commit-checkpoint",
      [`${CP.F}/0@cF2`]: "multi-commit-checkpoint",
      [`${CP.G}/0@cG2`]: "multi-session-checkpoint,multi-commit-checkpoint",
      [`${CP.G}/0@cMerge`]: "multi-session-checkpoint,multi-commit-checkpoint,merge-commit",
      [`${CP.G}/1@cG2`]: "multi-session-checkpoint,multi-checkpoint-session,multi-commit-checkpoint",
      [`${CP.G}/1@cMerge`]: "multi-session-checkpoint,multi-checkpoint-session,multi-commit-checkpoint,merge-commit",
      [`${CP.I}/0@cI`]: "multi-checkpoint-session",
      [`${CP.J}/0@cJ`]: "multi-checkpoint-session",
      [`${CP.K}/0@cK`]: "",
      [`${ULID}/0@cL`]: "",
      [`${CP.M}/0@cM`]: "",
      [`${CP.N}/0@cN`]: "",
      [`${CP.O}/0@cO`]: "multi-session-checkpoint",
      [`${CP.O}/1@cO`]: "multi-session-checkpoint",
      [`${CP.P}/0@cP`]: "",
      [`${CP.R}/0@cR`]: "",
    });
    assert.equal(units.length, 22);
    for (const u of units) assert.equal(u.ambiguity, u.ambiguity_reasons[0] ?? null);
    const e = units.find((u) => u.checkpoint_id === CP.E)!;
    assert.deepEqual(e.copies, [sha.cE, sha.cE2]);
    assert.deepEqual(e.checkpoint_commits, [sha.cE, sha.cE2]);
    const g1 = units.find((u) => u.checkpoint_id === CP.G && u.session_index === 1)!;
    assert.deepEqual(g1.session_checkpoints, [CP.G, CP.Q]);
    // A, E, K, the ULID, M, N, P, R
    assert.equal(units.filter((u) => u.ambiguity === null).length, 8);
  });

  test("linkUnits diagnostics: checkpoints on no commit, trailers without a checkpoint", () => {
    assert.deepEqual(codes(linkSink), { "checkpoint-without-commit": 2, "commit-checkpoint-unknown": 1 });
    const without = linkSink.rows.filter((d) => d.code === "checkpoint-without-commit").map((d) => d.message);
    assert.ok(without[0].includes(CP.H) && without[0].includes("1 session folder"));
    assert.ok(without[1].includes(CP.Q));
    assert.equal(linkSink.rows.find((d) => d.code === "checkpoint-without-commit")!.severity, "info");
    assert.ok(linkSink.rows.find((d) => d.code === "commit-checkpoint-unknown")!.message.includes("ffffffffffff"));
  });

  test("linkUnits option: only committed checkpoints count for multi-checkpoint-session", () => {
    const only = linkUnits(er.checkpoints, er.commits, new DiagnosticSink("entire"), {
      countUncommittedCheckpoints: false,
    });
    const g1 = only.find((u) => u.checkpoint_id === CP.G && u.session_index === 1 && u.commit_sha === sha.cMerge)!;
    // Q (S14's other checkpoint) is on no commit, so S14 is now linked to G only
    assert.deepEqual(g1.ambiguity_reasons, ["multi-session-checkpoint", "multi-commit-checkpoint", "merge-commit"]);
    assert.equal(only.length, units.length);
  });

  test("addAmbiguity: the pipeline's reasons 5–6 join in §1 order", () => {
    const k = { ...units.find((u) => u.checkpoint_id === CP.K)! };
    k.ambiguity_reasons = [...k.ambiguity_reasons];
    addAmbiguity(k, "transcript-missing");
    assert.deepEqual([k.ambiguity, k.ambiguity_reasons], ["transcript-missing", ["transcript-missing"]]);
    addAmbiguity(k, "commit-unreadable");
    addAmbiguity(k, "commit-unreadable");
    assert.deepEqual(
      [k.ambiguity, k.ambiguity_reasons],
      ["commit-unreadable", ["commit-unreadable", "transcript-missing"]],
    );
    const b = {
      ...units.find((u) => u.checkpoint_id === CP.B)!,
      ambiguity_reasons: ["multi-session-checkpoint" as const] as CandidateUnit["ambiguity_reasons"],
    };
    addAmbiguity(b, "transcript-unreadable");
    assert.deepEqual(
      [b.ambiguity, b.ambiguity_reasons],
      ["multi-session-checkpoint", ["multi-session-checkpoint", "transcript-unreadable"]],
    );
  });

  test("readTranscript: whole files, joined parts, compact files, absent ones", async () => {
    assert.equal(Buffer.from((await er.readTranscript(CP.A, 0))!).toString(), `{"n":1}\n{"n":2}\n`);
    // Entire trims the last newline of each part; parts join with "\n"
    assert.equal(
      Buffer.from((await er.readTranscript(CP.R, 0))!).toString(),
      `{"part":1}\n{"part":2}\n{"part":3}\n{"part":4}\n{"part":5}`,
    );
    assert.equal(Buffer.from((await er.readTranscript(CP.N, 0))!).toString(), "c1\nc2\nc3\nc4\n");
    assert.equal(Buffer.from((await er.readTranscript(ULID, 0))!).toString(), `{"n":1}\n{"n":2}\n`);
    assert.equal(await er.readTranscript(CP.K, 0), null);
    assert.equal(await er.readTranscript(CP.A, 5), null);
    assert.equal(await er.readTranscript("000000000000", 0), null);
    assert.equal(er.sources.get(CP.R)!.sessions[0].transcript!.parts.length, 3);
  });

  test("joinTranscriptParts merges Gemini JSON parts", () => {
    const enc = (s: string) => new Uint8Array(Buffer.from(s));
    const joined = joinTranscriptParts([
      enc(`{"sessionId":"x","messages":[{"a":1}]}`),
      enc(`{"messages":[{"a":2},{"a":3}]}`),
    ]);
    assert.deepEqual(JSON.parse(Buffer.from(joined).toString()), {
      sessionId: "x",
      messages: [{ a: 1 }, { a: 2 }, { a: 3 }],
    });
  });

  test("a bare clone and a mirror clone read the same; a plain clone reads the remote-tracking branch", async () => {
    // --mirror copies every ref (refs/entire/* too): everything is identical.
    const mirrorDir = join(box.root, "mirror.git");
    box.git(box.root, ["clone", "-q", "--mirror", dir, mirrorDir]);
    const mSink = new DiagnosticSink("entire");
    const mirror = await readEntireRepository(mirrorDir, mSink);
    assert.ok(mirror);
    try {
      assert.equal(mirror.repo.bare, true);
      assert.deepEqual(mirror.checkpoints, er.checkpoints);
      assert.deepEqual(new Set(mirror.commits.map((c) => c.sha)), new Set(er.commits.map((c) => c.sha)));
      const mUnits = linkUnits(mirror.checkpoints, mirror.commits, new DiagnosticSink("entire"));
      assert.deepEqual(
        mUnits.map((u) => [u.checkpoint_id, u.session_index, u.commit_sha, u.ambiguity_reasons]),
        units.map((u) => [u.checkpoint_id, u.session_index, u.commit_sha, u.ambiguity_reasons]),
      );
      assert.deepEqual(codes(mSink), codes(sink));
    } finally {
      await mirror.close();
    }

    // --bare copies branches only: the refs-only checkpoint is absent, its commit's trailer points nowhere.
    const bareDir = join(box.root, "bare.git");
    box.git(box.root, ["clone", "-q", "--bare", dir, bareDir]);
    const bare = await readEntireRepository(bareDir, new DiagnosticSink("entire"));
    assert.ok(bare);
    try {
      assert.deepEqual(
        bare.checkpoints.map((c) => c.checkpoint_id),
        Object.values(CP).sort(),
      );
      assert.equal(bare.sources.get(CP.M)!.backend, "branch");
      assert.equal(bare.checkpoints.find((c) => c.checkpoint_id === CP.M)!.sessions[0].agent_label, "Claude Code");
      const bSink = new DiagnosticSink("entire");
      linkUnits(bare.checkpoints, bare.commits, bSink);
      assert.equal(
        bSink.rows.filter((d) => d.code === "commit-checkpoint-unknown").length,
        2,
        "ffffffffffff and the ULID",
      );
    } finally {
      await bare.close();
    }

    // A plain clone has only refs/remotes/origin/entire/checkpoints/v1.
    const cloneDir = join(box.root, "clone");
    box.git(box.root, ["clone", "-q", dir, cloneDir]);
    const cloneRepo = await openRepository(cloneDir);
    assert.ok(cloneRepo);
    const refs = findEntireRefs(await cloneRepo.listRefs());
    await cloneRepo.close();
    assert.deepEqual(
      refs.branches.map((b) => [b.ref.name, b.remote]),
      [["refs/remotes/origin/entire/checkpoints/v1", "origin"]],
    );
    const clone = await readEntireRepository(cloneDir, new DiagnosticSink("entire"));
    assert.ok(clone);
    try {
      assert.equal(clone.checkpoints.length, Object.values(CP).length);
      assert.equal(clone.sources.get(CP.A)!.ref, "refs/remotes/origin/entire/checkpoints/v1");
      // the clone's own history excludes refs/remotes/origin/entire/*, but includes origin's code branches
      assert.deepEqual(new Set(clone.commits.map((c) => c.sha)), new Set(er.commits.map((c) => c.sha)));
    } finally {
      await clone.close();
    }
  });

  test("git processes: one cat-file --batch for every blob, a fixed number of others", async () => {
    // A `git` shim first on PATH logs every invocation, then runs the real git.
    const realGit = execFileSync("sh", ["-c", "command -v git"]).toString().trim();
    const shimDir = join(box.root, "shim");
    mkdirSync(shimDir, { recursive: true });
    const log = join(shimDir, "calls.log");
    writeFileSync(join(shimDir, "git"), `#!/bin/sh\necho "$*" >> "${log}"\nexec "${realGit}" "$@"\n`, { mode: 0o755 });
    const savedPath = process.env.PATH;
    process.env.PATH = `${shimDir}:${savedPath}`;
    try {
      const again = await readEntireRepository(dir, new DiagnosticSink("entire"));
      assert.ok(again);
      let read = 0;
      for (const c of again.checkpoints)
        for (const s of c.sessions) if (await again.readTranscript(c.checkpoint_id, s.index)) read++;
      await again.close();
      assert.equal(read, 20, "21 sessions; only K has no transcript");
    } finally {
      process.env.PATH = savedPath;
    }
    const calls = readFileSync(log, "utf8").trim().split("\n");
    const batch = calls.filter((c) => / cat-file --batch$/.test(c));
    assert.equal(batch.length, 1, "one cat-file --batch for ~60 metadata blobs, trees and transcripts");
    // for-each-ref, rev-parse ×2 (open) + rev-parse/symbolic-ref (HEAD), ls-tree (branch), cat-file --batch-check,
    // log (trailers), log -p | patch-id: a dozen at most, whatever the number of checkpoints.
    assert.ok(calls.length <= 12, `git ran ${calls.length} times:\n${calls.join("\n")}`);
  });

  test("a transcript blob absent from the object store: listed, flagged, unreadable", async () => {
    // Runs last on this fixture: it deletes a loose object of the source repository.
    // Most fixture transcripts share one blob (same text); O/1's text ("y\n") is unique to it.
    const shared = box.git(dir, ["rev-parse", er.sources.get(CP.B)!.sessions[1].transcript!.parts[0]]).trim();
    const unique = box.git(dir, ["rev-parse", er.sources.get(CP.O)!.sessions[1].transcript!.parts[0]]).trim();
    assert.notEqual(unique, shared);
    unlinkSync(join(dir, ".git", "objects", unique.slice(0, 2), unique.slice(2)));
    const s2 = new DiagnosticSink("entire");
    const again = await readEntireRepository(dir, s2);
    assert.ok(again);
    try {
      const o1 = again.checkpoints.find((c) => c.checkpoint_id === CP.O)!.sessions[1];
      assert.equal(o1.transcript_path, null);
      assert.equal(await again.readTranscript(CP.O, 1), null);
      const flagged = s2.rows.filter((d) => d.code === "entire-transcript-blob-missing");
      assert.equal(flagged.length, 1);
      assert.equal(flagged[0].session_id, S(16));
      assert.equal(Buffer.from((await again.readTranscript(CP.A, 0))!).toString(), `{"n":1}\n{"n":2}\n`);
    } finally {
      await again.close();
    }
  });
});

describe("Entire: unit helpers", () => {
  test("normaliseSessionId strips only the YYYY-MM-DD- prefix of a UUID", () => {
    assert.equal(
      normaliseSessionId("2026-01-15-f7633853-6663-4dbb-bbf4-6159afa29df8"),
      "f7633853-6663-4dbb-bbf4-6159afa29df8",
    );
    assert.equal(normaliseSessionId("f7633853-6663-4dbb-bbf4-6159afa29df8"), "f7633853-6663-4dbb-bbf4-6159afa29df8");
    assert.equal(normaliseSessionId("2026-01-15-not-a-uuid"), "2026-01-15-not-a-uuid");
    assert.equal(normaliseSessionId("ses_29bf628e8ffelXBwsq5WbmcROn"), "ses_29bf628e8ffelXBwsq5WbmcROn");
  });

  test("findEntireRefs orders branches local, origin, other remotes, legacy; validates refs", () => {
    const ref = (name: string) => ({ name, sha: "1".repeat(40), type: "commit", peeled: null, peeledType: null });
    const found = findEntireRefs([
      ref("refs/remotes/zeta/entire/checkpoints/v1"),
      ref("refs/remotes/origin/entire/checkpoints/v1"),
      ref("refs/heads/entire/sessions"),
      ref("refs/heads/entire/checkpoints/v1"),
      ref("refs/heads/main"),
      ref("refs/entire/checkpoints/ZN/01KVBJCWYA4YW6J5M9GP655HZN"),
      ref("refs/entire/checkpoints/01/01KVBJCWYA4YW6J5M9GP655HZN"),
      ref("refs/entire/checkpoints/ab/not-an-id"),
      ref("refs/entire/checkpoints/ab/cd/0123456789ab"),
    ]);
    assert.deepEqual(
      found.branches.map((b) => b.ref.name),
      [
        "refs/heads/entire/checkpoints/v1",
        "refs/remotes/origin/entire/checkpoints/v1",
        "refs/remotes/zeta/entire/checkpoints/v1",
        "refs/heads/entire/sessions",
      ],
    );
    assert.deepEqual(found.checkpointRefs.map((r) => [r.shard, r.shard_ok]).sort(), [
      ["01", false],
      ["ZN", true],
    ]);
    assert.equal(found.malformed.length, 2);
  });
});

// ---------------------------------------------------------------------------
// Real checkpoint folders from the research corpus (read at run time).

function readFolder(root: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p).split("\\").join("/")] = readFileSync(p);
    }
  };
  walk(root);
  return out;
}

interface CorpusRepository {
  box: Sandbox;
  er: EntireRepository;
  sink: DiagnosticSink;
  sha: Record<string, string>;
}

/**
 * A real git repository holding real checkpoint folders (each `[folder on disk, shard/id]`) on
 * entire/checkpoints/v1, and one code commit per checkpoint with its `Entire-Checkpoint:` trailer.
 */
async function corpusRepository(folders: [string, string][]): Promise<CorpusRepository> {
  const box = new Sandbox(mkdtempSync(join(tmpdir(), "sce-entire-corpus-")));
  const dir = join(box.root, "work");
  mkdirSync(dir);
  box.git(dir, ["init", "-q"]);
  const files: Record<string, Buffer> = {};
  for (const [onDisk, folder] of folders) {
    for (const [rel, content] of Object.entries(readFolder(onDisk))) files[`${folder}/${rel}`] = content;
  }
  const ids = folders.map(([, folder]) => folder.replace("/", ""));
  const tip = commitTree(box, dir, writeTree(box, dir, files), `Checkpoint: ${ids[0]}`);
  box.git(dir, ["update-ref", "refs/heads/entire/checkpoints/v1", tip]);
  const sha: Record<string, string> = {};
  for (const id of ids) {
    writeFileSync(join(dir, `${id}.txt`), id + "\n");
    box.git(dir, ["add", "."]);
    box.git(dir, ["commit", "-q", "-m", `work ${id}\n\nEntire-Checkpoint: ${id}`]);
    sha[id] = box.git(dir, ["rev-parse", "HEAD"]).trim();
  }
  const sink = new DiagnosticSink("entire");
  const er = await readEntireRepository(dir, sink);
  assert.ok(er);
  return { box, er, sink, sha };
}

async function closeCorpusRepository(r: CorpusRepository | undefined): Promise<void> {
  await r?.er.close();
  if (r) rmSync(r.box.root, { recursive: true, force: true });
}

const ambiguities = (r: CorpusRepository) =>
  Object.fromEntries(
    linkUnits(r.er.checkpoints, r.er.commits, new DiagnosticSink("entire")).map((u) => [
      `${u.checkpoint_id}/${u.session_index}`,
      u.ambiguity,
    ]),
  );

// Real folders of entireio/cli (test/fixtures): c6/39a44ea03d (2 sessions), ab/2b9748b105 (migrated: dated session id,
// files_touched null).
describe("Entire repository: real checkpoint metadata (entireio/cli)", () => {
  let r: CorpusRepository;
  before(async () => {
    r = await corpusRepository([
      [corpusPath("entire", "entireio-cli", "c6", "39a44ea03d"), "c6/39a44ea03d"],
      [corpusPath("entire", "entireio-cli", "ab", "2b9748b105"), "ab/2b9748b105"],
    ]);
  });
  after(() => closeCorpusRepository(r));

  test("real metadata parses into the model", () => {
    const byId = new Map(r.er.checkpoints.map((c) => [c.checkpoint_id, c]));
    assert.deepEqual([...byId.keys()], ["ab2b9748b105", "c639a44ea03d"]);
    const c6 = byId.get("c639a44ea03d")!;
    assert.deepEqual(
      c6.sessions.map((s) => s.session_id),
      ["ce24e94d-ea12-40cb-9b87-ceb55770af78", "fe0cdcc5-cd91-4041-8742-e375aca7f56e"],
    );
    assert.deepEqual(c6.sessions[1].initial_attribution, {
      agent_lines: 15,
      human_added: 2,
      human_modified: 0,
      human_removed: 0,
      total_committed: 17,
      agent_percentage: 88.23529411764706,
    });
    assert.equal(c6.sessions[1].branch, "soph/gemini-preview");
    assert.equal(c6.token_usage!.api_call_count, 24);
    const ab = byId.get("ab2b9748b105")!.sessions[0];
    assert.deepEqual(
      [ab.session_id, ab.files_touched, ab.agent_label, ab.initial_attribution],
      ["f7633853-6663-4dbb-bbf4-6159afa29df8", [], null, null],
    );
  });

  test("real data diagnostics and units", () => {
    // ab/2b9748b105/0 lists full.jsonl in the summary and the folder has it: no transcript is missing.
    assert.deepEqual(
      r.sink.rows.filter((d) => d.code === "entire-transcript-missing"),
      [],
    );
    assert.deepEqual(ambiguities(r), {
      "ab2b9748b105/0": null,
      "c639a44ea03d/0": "multi-session-checkpoint",
      "c639a44ea03d/1": "multi-session-checkpoint",
    });
    assert.equal(r.er.checkpoints.length, 2);
    const units = linkUnits(r.er.checkpoints, r.er.commits, new DiagnosticSink("entire"));
    assert.equal(units.find((u) => u.checkpoint_id === "c639a44ea03d")!.commit_sha, r.sha.c639a44ea03d);
  });
});

// Real folders of entireio/external-agents, only in the shared corpus (no licence to copy them under):
// c3/b191fe1158 and fc/9a115d0155, one Codex session in two checkpoints; fc9a has no full.jsonl in the corpus.
describe("Entire repository: one Codex session in two real checkpoints (entireio/external-agents)", {
  skip: sharedCorpusSkip,
}, () => {
  let r: CorpusRepository;
  before(async () => {
    r = await corpusRepository([
      [sharedCorpusPath("entire", "entireio-external-agents", "c3", "b191fe1158"), "c3/b191fe1158"],
      [sharedCorpusPath("entire", "entireio-external-agents", "fc", "9a115d0155"), "fc/9a115d0155"],
    ]);
  });
  after(() => closeCorpusRepository(r));

  test("real metadata parses into the model", () => {
    const byId = new Map(r.er.checkpoints.map((c) => [c.checkpoint_id, c]));
    assert.deepEqual([...byId.keys()], ["c3b191fe1158", "fc9a115d0155"]);
    const c3 = byId.get("c3b191fe1158")!.sessions[0];
    assert.deepEqual(
      [c3.agent_label, c3.model, c3.transcript_start, c3.initial_attribution!.agent_lines],
      ["Codex", "gpt-5.4", 274, 12],
    );
    assert.equal(byId.get("fc9a115d0155")!.sessions[0].transcript_path, null);
  });

  test("real data diagnostics and units", () => {
    const missing = r.sink.rows.filter((d) => d.code === "entire-transcript-missing");
    assert.deepEqual(
      missing.map((d) => d.session_id),
      ["019dbcc1-3812-72e1-9caa-f97edd88215b"],
    );
    assert.deepEqual(ambiguities(r), {
      "c3b191fe1158/0": "multi-checkpoint-session",
      "fc9a115d0155/0": "multi-checkpoint-session",
    });
  });
});

// ---------------------------------------------------------------------------
// The real entireio/external-agents repository, when a read-only mirror is present.

const MIRROR = EXTERNAL_AGENTS_MIRROR;

describe("Entire repository: the entireio/external-agents mirror", {
  skip: !existsSync(MIRROR) && "mirror absent",
}, () => {
  test("counts agree with independent git listings", async () => {
    const git = (args: string[], input?: string) =>
      execFileSync("git", [`--git-dir=${MIRROR}`, ...args], { input, maxBuffer: 256 * 1024 * 1024 }).toString();
    const paths = git(["ls-tree", "-r", "--name-only", "entire/checkpoints/v1"]).split("\n").filter(Boolean);
    const checkpointCount = paths.filter((p) => /^[^/]{2}\/[^/]+\/metadata\.json$/.test(p)).length;
    const sessionCount = paths.filter((p) => /^[^/]{2}\/[^/]+\/\d+\/metadata\.json$/.test(p)).length;
    const transcripts = paths.filter((p) => p.endsWith("/full.jsonl"));
    const absent = git(
      ["cat-file", "--batch-check"],
      transcripts.map((p) => `entire/checkpoints/v1:${p}`).join("\n") + "\n",
    )
      .split("\n")
      .filter((l) => l.endsWith(" missing")).length;
    // trailer-carrying commits on all refs except entire/*, by git log --all minus the excluded refs
    const trailerCommits = git([
      "log",
      "--all",
      "--exclude=refs/heads/entire/*",
      "--exclude=refs/remotes/*/entire/*",
      "--format=%H %(trailers:key=Entire-Checkpoint,valueonly,separator=%x2C)",
    ])
      .split("\n")
      .filter((l) => l.trim().includes(" ")).length;

    const sink = new DiagnosticSink("entire");
    const er = await readEntireRepository(MIRROR, sink);
    assert.ok(er);
    try {
      assert.equal(er.checkpoints.length, checkpointCount);
      assert.equal(
        er.checkpoints.reduce((n, c) => n + c.sessions.length, 0),
        sessionCount,
      );
      assert.equal(sink.rows.filter((d) => d.code === "entire-transcript-blob-missing").length, absent);
      assert.equal(er.commits.length, trailerCommits);
      const units = linkUnits(er.checkpoints, er.commits, new DiagnosticSink("entire"));
      // every unit's commit carries its checkpoint id and is the earliest of its copies
      for (const u of units) {
        assert.ok(u.commit.checkpoint_ids.includes(u.checkpoint_id));
        assert.equal(u.copies[0], u.commit_sha);
      }
      assert.ok(units.length >= sessionCount - 10, "nearly every session folder is on a commit");
    } finally {
      await er.close();
    }
  });
});
