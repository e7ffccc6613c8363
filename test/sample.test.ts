import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSampleCorpus } from "../src/sample/generate";
import type { SampleCorpus, SampleSession } from "../src/sample/generate";
import { SAMPLE_MARKER, ensureSampleCorpus } from "../src/sample";

type Json = Record<string, any>;

const work = mkdtempSync(join(tmpdir(), "sample-test-"));
let corpus: SampleCorpus;

function git(args: string[], cwd = corpus.repoDir): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" },
  });
}

function show(path: string, rev = corpus.checkpointsBranch): string {
  return git(["show", `${rev}:${path}`]);
}

function jsonl(text: string): Json[] {
  const lines = text.split("\n");
  assert.equal(lines.pop(), "", "a JSONL file ends with a newline");
  return lines.map((line, i) => {
    const value = JSON.parse(line);
    assert.ok(value !== null && typeof value === "object" && !Array.isArray(value), `line ${i + 1} is an object`);
    return value as Json;
  });
}

function session(key: string): SampleSession {
  const s = corpus.sessions.find((x) => x.key === key);
  assert.ok(s, `session ${key}`);
  return s;
}

function records(key: string): Json[] {
  const s = session(key);
  assert.ok(s.transcript);
  return jsonl(readFileSync(s.transcript, "utf8"));
}

function commit(name: string) {
  const c = corpus.commits.find((x) => x.name === name);
  assert.ok(c, `commit ${name}`);
  return c;
}

/** Real prompts by metrics.md §5, recomputed from the records. */
function realPrompts(recs: Json[]): number {
  return recs.filter((r) => {
    if (r.type !== "user" || r.isSidechain || r.isMeta || r.isCompactSummary) return false;
    const c = r.message.content;
    return (
      typeof c === "string" &&
      !c.startsWith("<command-") &&
      !c.startsWith("<local-command") &&
      !c.startsWith("[Request interrupted")
    );
  }).length;
}

before(async () => {
  corpus = await generateSampleCorpus(join(work, "a"));
});

after(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("sample corpus: git repository", () => {
  test("git fsck finds nothing wrong", () => {
    const out = execFileSync("git", ["fsck", "--strict", "--no-progress"], {
      cwd: corpus.repoDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    assert.equal(out.trim(), "");
  });

  test("branches and the checked-out main", () => {
    const refs = git(["for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads"]).trim().split("\n");
    const heads = Object.fromEntries(refs.map((l) => l.split(" ")));
    assert.deepEqual(Object.keys(heads).sort(), [
      "entire/checkpoints/v1",
      "feature/slug-options",
      "main",
      "release/0.1",
    ]);
    for (const [branch, sha] of Object.entries(corpus.branches)) assert.equal(heads[branch], sha, branch);
    assert.equal(git(["symbolic-ref", "HEAD"]).trim(), "refs/heads/main");
    assert.equal(git(["status", "--porcelain"]).trim(), "", "clean worktree");
    assert.ok(existsSync(join(corpus.repoDir, "src", "csv.ts")));
    // The worktree branch was fast-forwarded into main.
    git(["merge-base", "--is-ancestor", corpus.branches["feature/slug-options"], "main"]);
  });

  test("every commit is where the corpus says, with its dates and parents", () => {
    for (const c of corpus.commits) {
      const [parents, at, ct, subject] = git(["log", "-1", "--format=%P%x00%at%x00%ct%x00%s", c.sha])
        .trim()
        .split("\0");
      assert.deepEqual(parents === "" ? [] : parents.split(" "), c.parents, c.name);
      assert.equal(Number(at), c.author_time, c.name);
      assert.equal(Number(ct), c.committer_time, c.name);
      assert.equal(subject, c.subject, c.name);
      git(["merge-base", "--is-ancestor", c.sha, c.branch]);
    }
    const main = git(["rev-list", "--first-parent", "main"]).trim().split("\n");
    assert.equal(main.length, 16, "C0..C15 on main");
  });

  test("Entire-Checkpoint trailers, as git's trailer parser reads them", () => {
    for (const c of corpus.commits) {
      const trailer = git(["log", "-1", "--format=%(trailers:key=Entire-Checkpoint,valueonly)", c.sha]).trim();
      assert.equal(trailer === "" ? null : trailer, c.checkpoint_id, c.name);
      if (c.checkpoint_id) assert.match(c.checkpoint_id, /^[0-9a-f]{12}$/);
    }
    // The squash-style message quotes scenario 1's trailer in its body: not a link.
    const c15 = commit("C15");
    assert.equal(c15.checkpoint_id, null);
    assert.ok(git(["log", "-1", "--format=%B", c15.sha]).includes(`Entire-Checkpoint: ${commit("C2").checkpoint_id}`));
    // Every linked checkpoint id is on exactly one main commit, except none.
    const onMain = corpus.commits.filter((c) => c.branch === "main" && c.checkpoint_id).map((c) => c.checkpoint_id);
    assert.equal(new Set(onMain).size, onMain.length);
  });

  test("the cherry-pick is a copy: same patch id, same trailer, later committer time", () => {
    const original = commit("C9");
    const copy = commit("C9r");
    assert.equal(copy.copy_of, "C9");
    assert.equal(copy.branch, "release/0.1");
    assert.notEqual(copy.sha, original.sha);
    assert.equal(copy.checkpoint_id, original.checkpoint_id);
    const patchId = (sha: string): string =>
      execFileSync("git", ["patch-id", "--stable"], {
        cwd: corpus.repoDir,
        input: git(["show", sha]),
        encoding: "utf8",
      }).split(" ")[0];
    assert.equal(patchId(copy.sha), patchId(original.sha));
    assert.ok(copy.committer_time > original.committer_time);
    assert.equal(copy.author_time, original.author_time);
  });
});

describe("sample corpus: Entire checkpoints branch", () => {
  test("is an orphan branch starting with an empty tree", () => {
    assert.throws(() => git(["merge-base", "main", corpus.checkpointsBranch]));
    const first = git(["rev-list", "--max-parents=0", corpus.checkpointsBranch]).trim().split("\n");
    assert.equal(first.length, 1);
    assert.equal(
      git(["log", "-1", "--format=%s %T", first[0]]).trim(),
      "Initialize metadata branch 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    );
  });

  test("layout: <id[:2]>/<id[2:]>/metadata.json and numbered session folders", () => {
    const paths = git(["ls-tree", "-r", "--name-only", corpus.checkpointsBranch]).trim().split("\n");
    for (const p of paths)
      assert.match(
        p,
        /^[0-9a-f]{2}\/[0-9a-f]{10}\/(metadata\.json|\d+\/(metadata\.json|full\.jsonl|prompt\.txt|content_hash\.txt))$/,
        p,
      );
    const ids = new Set(paths.map((p) => p.slice(0, 2) + p.slice(3, 13)));
    assert.deepEqual([...ids].sort(), corpus.checkpoints.map((c) => c.checkpoint_id).sort());
    assert.equal(corpus.checkpoints.length, 14);
  });

  test("metadata, transcripts and content hashes of every session folder", () => {
    for (const cp of corpus.checkpoints) {
      const dir = `${cp.checkpoint_id.slice(0, 2)}/${cp.checkpoint_id.slice(2)}`;
      const root = JSON.parse(show(`${dir}/metadata.json`));
      assert.equal(root.checkpoint_id, cp.checkpoint_id);
      assert.equal(root.sessions.length, cp.sessions.length);
      let apiCalls = 0;
      for (const s of cp.sessions) {
        assert.equal(root.sessions[s.index].transcript, `/${dir}/${s.index}/full.jsonl`);
        const meta = JSON.parse(show(`${dir}/${s.index}/metadata.json`));
        assert.equal(meta.checkpoint_id, cp.checkpoint_id);
        assert.equal(meta.session_id, s.entire_session_id);
        assert.equal(meta.strategy, "manual-commit");
        assert.equal(typeof meta.initial_attribution.agent_lines, "number");
        assert.equal(typeof meta.token_usage.api_call_count, "number");
        apiCalls += meta.token_usage.api_call_count;
        const start = meta.checkpoint_transcript_start ?? meta.transcript_lines_at_start ?? 0;
        assert.equal(start, s.transcript_start);
        const hash = show(`${dir}/${s.index}/content_hash.txt`);
        assert.match(hash, /^sha256:[0-9a-f]{64}$/);
        if (!s.transcript_present) {
          assert.throws(() => show(`${dir}/${s.index}/full.jsonl`));
          continue;
        }
        const full = show(`${dir}/${s.index}/full.jsonl`);
        assert.equal(hash, `sha256:${createHash("sha256").update(full).digest("hex")}`);
        assert.equal(jsonl(full).length, s.transcript_records);
        // full.jsonl is the session's transcript up to the commit: a prefix of the raw file.
        const raw = readFileSync(session(s.session_key).transcript as string, "utf8");
        assert.ok(raw.startsWith(full), `${cp.checkpoint_id}/${s.index} is a prefix of the raw transcript`);
      }
      assert.equal(root.token_usage.api_call_count, apiCalls);
    }
  });

  test("the special folders: two sessions, a lost transcript, a Gemini label, a legacy id, a later slice", () => {
    const byCommit = (name: string) => corpus.checkpoints.find((c) => c.commit === name);
    assert.equal(byCommit("C8")?.sessions.length, 2);
    assert.equal(byCommit("C11")?.sessions[0].transcript_present, false);
    const cp10 = byCommit("C10") as NonNullable<ReturnType<typeof byCommit>>;
    const meta10 = JSON.parse(show(`${cp10.checkpoint_id.slice(0, 2)}/${cp10.checkpoint_id.slice(2)}/0/metadata.json`));
    assert.equal(meta10.agent, "Gemini CLI");
    assert.equal(
      jsonl(show(`${cp10.checkpoint_id.slice(0, 2)}/${cp10.checkpoint_id.slice(2)}/0/full.jsonl`))[0].type,
      "progress",
      "a Claude Code transcript",
    );
    const legacy = session("s13-legacy");
    assert.match(legacy.entire_session_id, /^2026-01-06-[0-9a-f-]{36}$/);
    assert.equal(legacy.entire_session_id.slice(11), legacy.session_id);
    const s12 = session("s12-csv");
    assert.equal(s12.checkpoints.length, 2);
    const second = byCommit("C14") as NonNullable<ReturnType<typeof byCommit>>;
    const first = byCommit("C13") as NonNullable<ReturnType<typeof byCommit>>;
    assert.equal(second.sessions[0].transcript_start, first.sessions[0].transcript_records);
    assert.ok(second.sessions[0].transcript_start > 0);
    const log = git(["log", "--format=%B%x00", corpus.checkpointsBranch]);
    assert.ok(log.includes("Entire-Agent: Gemini CLI"));
    assert.ok(
      log.includes(`Entire-Session: ${legacy.entire_session_id}\nEntire-Strategy: manual-commit\nEphemeral-branch:`),
      "legacy: no Entire-Agent trailer",
    );
  });
});

describe("sample corpus: transcripts", () => {
  test("every transcript is valid JSONL with the counts the corpus reports", () => {
    for (const s of corpus.sessions) {
      if (s.transcript === null) {
        assert.equal(s.key, "s10-lost");
        continue;
      }
      assert.ok(s.transcript.startsWith(join(corpus.claudeProjectsDir, s.project_dir)));
      const recs = records(s.key);
      assert.equal(recs.length, s.record_count, s.key);
      const types: Record<string, number> = {};
      for (const r of recs) types[r.type] = (types[r.type] ?? 0) + 1;
      assert.deepEqual(types, s.record_types, s.key);
      for (const r of recs) if (r.sessionId !== undefined) assert.equal(r.sessionId, s.session_id, s.key);
      assert.equal(realPrompts(recs), s.prompts, `${s.key}: real prompts`);
      s.subagent_transcripts.forEach((p, i) => {
        const sub = jsonl(readFileSync(p, "utf8"));
        assert.equal(sub.length, s.subagent_record_counts[i]);
        assert.ok(sub.every((r) => r.isSidechain === true && r.sessionId === s.session_id));
      });
    }
    assert.equal(corpus.sessions.length, 14);
  });

  test("project folders: main checkout, worktree, sub-folder", () => {
    const dirs = new Set(corpus.sessions.filter((s) => s.transcript).map((s) => s.project_dir));
    assert.deepEqual([...dirs].sort(), [
      "-home-dev-sample-app",
      "-home-dev-sample-app--worktrees-2",
      "-home-dev-sample-app-src",
    ]);
    assert.equal(session("s11-worktree").cwd, "/home/dev/sample-app/.worktrees/2");
    assert.ok(
      records("s11-worktree").some(
        (r) => r.toolUseResult?.filePath === "/home/dev/sample-app/.worktrees/2/src/slugify.ts",
      ),
    );
    assert.equal(session("s06-plan").cwd, "/home/dev/sample-app/src");
  });

  test("Claude Code 2.x streaming: several records per message id, usage growing to the last", () => {
    let streamed = 0;
    for (const s of corpus.sessions) {
      if (!s.transcript || s.claude_code_version.startsWith("1.")) continue;
      const byId = new Map<string, number[]>();
      for (const r of records(s.key)) {
        if (r.type !== "assistant" || r.message.model === "<synthetic>") continue;
        const list = byId.get(r.message.id) ?? [];
        list.push(r.message.usage.output_tokens);
        byId.set(r.message.id, list);
        assert.match(r.requestId, /^req_011C/);
      }
      byId.forEach((outs) => {
        if (outs.length > 1) streamed++;
        assert.equal(Math.max(...outs), outs[outs.length - 1], "the last record has the final usage");
      });
      assert.equal(byId.size, s.usage.api_calls, `${s.key}: one API call per message id`);
    }
    assert.ok(streamed > 10);
  });

  test("the 1.0.x transcript: one record per response, MultiEdit, inline sidechain, no gitBranch", () => {
    const recs = records("s13-legacy");
    assert.equal(session("s13-legacy").claude_code_version, "1.0.128");
    const assistants = recs.filter((r) => r.type === "assistant");
    assert.equal(new Set(assistants.map((r) => r.message.id)).size, assistants.length);
    assert.ok(assistants.some((r) => r.message.stop_reason === "tool_use"));
    assert.ok(recs.every((r) => r.gitBranch === undefined));
    const multi = recs.find(
      (r) => typeof r.toolUseResult === "object" && r.toolUseResult?.originalFileContents !== undefined,
    );
    assert.ok(multi);
    assert.equal(multi.toolUseResult.edits.length, 2);
    const side = recs.filter((r) => r.isSidechain === true);
    assert.ok(side.length >= 3);
    assert.equal(side[0].parentUuid, null);
  });

  test("sub-agent edits through agent_progress, mirrored in subagents/agent-<id>.jsonl", () => {
    const s = session("s05-subagent");
    const nested = records(s.key).filter((r) => r.type === "progress" && r.data.type === "agent_progress");
    const tools = nested
      .flatMap((r) => (Array.isArray(r.data.message.message.content) ? r.data.message.message.content : []))
      .filter((b: Json) => b.type === "tool_use")
      .map((b: Json) => b.name);
    assert.ok(tools.includes("Write") && tools.includes("Edit"));
    assert.ok(nested.some((r) => r.data.message.toolUseResult?.type === "create"));
    assert.equal(s.subagent_transcripts.length, 1);
    assert.match(s.subagent_transcripts[0], /\/subagents\/agent-a[0-9a-f]{6}\.jsonl$/);
    const sub = jsonl(readFileSync(s.subagent_transcripts[0], "utf8"));
    assert.equal(sub.length, nested.length, "every sub-agent record is mirrored once");
    assert.deepEqual(s.subagent_models, ["claude-haiku-4-5-20251001"]);
    const task = records(s.key).find((r) => r.toolUseResult?.agentId !== undefined);
    assert.equal(task?.toolUseResult.status, "completed");
  });

  test("failed calls, interruption, userModified, plan file, compaction, commands, meta, API errors", () => {
    const s4 = records("s04-exports");
    const failed = s4.filter((r) => typeof r.toolUseResult === "string");
    assert.equal(failed.length, 2);
    assert.ok(failed.every((r) => r.message.content[0].is_error === true));
    assert.ok(failed[0].toolUseResult.startsWith("Error: String to replace not found"));
    assert.equal(failed[1].toolUseResult, "User rejected tool use");
    assert.ok(
      s4.some(
        (r) =>
          Array.isArray(r.message?.content) &&
          r.message.content[0].text === "[Request interrupted by user for tool use]",
      ),
    );

    const modified = corpus.sessions
      .filter((s) => s.transcript)
      .flatMap((s) => records(s.key))
      .filter((r) => r.toolUseResult?.userModified === true);
    assert.equal(modified.length, 1);

    const plan = records("s06-plan").find((r) => r.toolUseResult?.filePath?.startsWith("/home/dev/.claude/plans/"));
    assert.equal(plan?.toolUseResult.type, "create");

    const s12 = records("s12-csv");
    assert.equal(s12.filter((r) => r.subtype === "compact_boundary").length, 1);
    const summary = s12.find((r) => r.isCompactSummary === true);
    assert.ok(summary?.message.content.startsWith("This session is being continued from a previous conversation"));
    assert.ok(
      s12.some(
        (r) =>
          typeof r.message?.content === "string" && r.message.content.startsWith("<command-name>/model</command-name>"),
      ),
    );
    assert.deepEqual(session("s12-csv").models, ["claude-sonnet-4-5-20250929", "claude-opus-4-6"]);

    const s1 = records("s01-slugify");
    assert.ok(s1.some((r) => r.isMeta === true));
    assert.ok(
      s1.some(
        (r) =>
          typeof r.message?.content === "string" && r.message.content.startsWith("<command-name>/exit</command-name>"),
      ),
    );

    const s3 = records("s03-duration");
    assert.equal(s3.filter((r) => r.subtype === "api_error").length, 2);
    assert.ok(s3.some((r) => r.message?.model === "<synthetic>" && r.isApiErrorMessage === true));
    // The formatter's change shows only in the next Edit's originalFile.
    const edits = s3.filter((r) => r.toolUseResult?.originalFile !== undefined);
    assert.equal(edits.length, 3);
    const replayed = edits[1].toolUseResult.originalFile.replace(
      edits[1].toolUseResult.oldString,
      edits[1].toolUseResult.newString,
    );
    assert.notEqual(edits[2].toolUseResult.originalFile, replayed);
  });
});

describe("sample corpus: expected attribution", () => {
  test("one expected unit per linked (session, checkpoint) and consistent numbers", () => {
    assert.equal(corpus.expected.length, 15);
    const reasons = new Set([
      "multi-session-checkpoint",
      "multi-checkpoint-session",
      "multi-commit-checkpoint",
      "merge-commit",
      "commit-unreadable",
      "transcript-missing",
      "transcript-unreadable",
    ]);
    for (const u of corpus.expected) {
      if (u.total_committed_lines === null) continue; // no transcript: the unit is not computed
      const c = commit(u.commit);
      assert.equal(c.sha, u.commit_sha);
      assert.equal(c.checkpoint_id, u.checkpoint_id);
      assert.ok(session(u.session_key).checkpoints.includes(u.checkpoint_id));
      if (u.ambiguity !== null) assert.ok(reasons.has(u.ambiguity), u.ambiguity);
      if (u.agent_lines_survived === null) continue;
      const n = u as Required<{ [K in keyof typeof u]: NonNullable<(typeof u)[K]> }>;
      assert.ok(n.agent_lines_survived <= n.agent_lines_final, u.commit);
      assert.ok(n.agent_lines_survived <= n.agent_lines_produced, u.commit);
      assert.equal(n.agent_lines_survived + n.human_lines + n.outside_lines, u.total_committed_lines, u.commit);
    }
    const unambiguous = corpus.expected.filter((u) => u.ambiguity === null);
    assert.equal(unambiguous.length, 10);
  });

  test("total_committed_lines equals git's added lines (no ambiguous diffs in the sample)", () => {
    for (const u of corpus.expected) {
      if (u.total_committed_lines === null) continue; // no transcript: the unit is not computed
      const c = commit(u.commit);
      const numstat = git(["diff", "--numstat", c.parents[0], c.sha]).trim().split("\n");
      const added = numstat.reduce((n, line) => n + Number(line.split("\t")[0]), 0);
      assert.equal(added, u.total_committed_lines, u.commit);
    }
  });

  test("Entire's token usage per session folder is the usage of its transcript slice", () => {
    for (const s of corpus.sessions.filter((x) => x.checkpoints.length === 1 && x.transcript)) {
      const cp = corpus.checkpoints.find(
        (c) => c.checkpoint_id === s.checkpoints[0],
      ) as SampleCorpus["checkpoints"][number];
      const folder = cp.sessions.find(
        (x) => x.session_key === s.key,
      ) as SampleCorpus["checkpoints"][number]["sessions"][number];
      const meta = JSON.parse(
        show(`${cp.checkpoint_id.slice(0, 2)}/${cp.checkpoint_id.slice(2)}/${folder.index}/metadata.json`),
      );
      assert.deepEqual(
        meta.token_usage,
        {
          input_tokens: s.usage.input_tokens,
          cache_creation_tokens: s.usage.cache_creation_tokens,
          cache_read_tokens: s.usage.cache_read_tokens,
          output_tokens: s.usage.output_tokens,
          api_call_count: s.usage.api_calls,
        },
        s.key,
      );
    }
  });
});

describe("sample corpus: determinism and caching", () => {
  test("two generations give the same commits, refs and bytes", async () => {
    const again = await generateSampleCorpus(join(work, "b"));
    assert.deepEqual(
      again.commits.map((c) => [c.name, c.sha]),
      corpus.commits.map((c) => [c.name, c.sha]),
    );
    assert.deepEqual(again.branches, corpus.branches);
    assert.deepEqual(
      again.expected.map((u) => u.commit_sha),
      corpus.expected.map((u) => u.commit_sha),
    );
    for (const s of corpus.sessions) {
      const other = again.sessions.find((x) => x.key === s.key) as SampleSession;
      assert.equal(other.session_id, s.session_id);
      if (s.transcript)
        assert.equal(readFileSync(other.transcript as string, "utf8"), readFileSync(s.transcript, "utf8"), s.key);
    }
  });

  test("ensureSampleCorpus generates once, marks the folder complete, and reuses it", async () => {
    const dir = join(work, "cache");
    const first = await ensureSampleCorpus(dir);
    assert.equal(first.repoDir, join(dir, "repo"));
    assert.ok(existsSync(join(dir, SAMPLE_MARKER)));
    const marked = statSync(join(dir, SAMPLE_MARKER)).mtimeMs;
    const second = await ensureSampleCorpus(dir);
    assert.equal(statSync(join(dir, SAMPLE_MARKER)).mtimeMs, marked, "not regenerated");
    assert.deepEqual(second, first);
    assert.deepEqual(
      second.commits.map((c) => c.sha),
      corpus.commits.map((c) => c.sha),
    );
    assert.ok(existsSync(second.sessions[0].transcript as string));
    // Several callers at once end up with one complete folder.
    const racing = join(work, "race");
    const all = await Promise.all([ensureSampleCorpus(racing), ensureSampleCorpus(racing)]);
    assert.deepEqual(all[0], all[1]);
    assert.ok(existsSync(join(racing, SAMPLE_MARKER)));
  });
});
