/**
 * The build: selects and orders the sessions, schedules the quirks, writes
 * every commit through one fast-import stream (session by session), then
 * checks out main, deletes the missing-blob objects and turns the marks of
 * the manifest rows into shas.
 */
import { appendFileSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { Rng } from "../generate-corpus";
import { FastImport } from "./fast-import";
import { ENTIRE_REPO_VERSION, type EntireRepoManifest, type Quirk } from "./manifest";
import { fitQuirk, schedule, selectSessions } from "./plan";
import { writeSession } from "./session-commits";
import { commitFiles, readSession } from "./session-log";
import { type BuildState, gitIn, type PendingSession, personOf, SAM, T_START, tick } from "./state";

const README = "# demo\n\nA repository written by swe-chat-eval's bench.\n";

export async function build(
  dir: string,
  count: number,
  seed: number,
  minKb: number,
  log: (l: string) => void,
): Promise<EntireRepoManifest> {
  const t0 = Date.now();
  const git = gitIn(dir);
  git(["init", "-q", "-b", "main"]);
  git(["config", "gc.auto", "0"]);
  appendFileSync(join(dir, ".git", "info", "exclude"), "/manifest.json\n");

  const order = selectSessions(seed, count, minKb, log);
  const rng = new Rng((seed * 0x2545f491) ^ 0xe17e);
  const plan = schedule(rng, order.length);

  const st: BuildState = {
    dir,
    seed,
    rng,
    git,
    fi: new FastImport(dir, join(dir, ".git", "bench-marks")),
    tree: new Map(),
    release: new Map(),
    time: T_START,
    head: 0,
    checkpointsTip: null,
    releaseTip: 0,
    usedIds: new Set(),
    sessions: [],
    checkpoints: [],
    expected: [],
    missingBlobs: [],
    recordedIds: new Map(),
    quirks: {},
    transcriptBytes: 0,
    sessionBytes: 0,
  };
  st.head = await st.fi.commit({
    ref: "refs/heads/main",
    author: SAM,
    time: tick(st),
    message: "Initial commit\n",
    from: null,
    changes: [{ path: "README.md", content: README }],
  });
  st.tree.set("README.md", README);
  st.releaseTip = st.head;
  st.release = new Map(st.tree);
  const deferred: Quirk[] = [];

  let lastLog = Date.now();
  for (let k = 0; k < order.length; k++) {
    const s = readSession(seed, order[k].index);
    st.sessionBytes += s.bytes;
    let quirk: Quirk | null = deferred.length > 0 && plan[k] === null ? deferred.shift()! : plan[k];
    const { prepare, final } = commitFiles(s);

    // Feasibility: a quirk that does not fit this session waits for the next one.
    const fit = fitQuirk(seed, order, k, s, quirk, { prepare, final });
    if (!fit.feasible) {
      deferred.push(quirk!);
      quirk = null;
    }
    if (quirk) st.quirks[quirk] = (st.quirks[quirk] ?? 0) + 1;
    const entry: PendingSession = {
      index: s.index,
      session_id: s.id,
      quirk,
      variant: [],
      checkpoints: [],
      commits: [],
      commitMarks: [],
      bytes: s.bytes,
      prompts: s.prompts.length,
      edits: s.edits.length,
      patched_files: final.size,
    };
    st.sessions.push(entry);
    k += await writeSession(st, {
      k,
      s,
      quirk,
      entry,
      person: personOf(s),
      prepare,
      final,
      partner: fit.partner,
      split: fit.split,
    });

    if (Date.now() - lastLog > 5000) {
      lastLog = Date.now();
      log(
        `  wrote ${k + 1} / ${order.length} sessions, ${(st.transcriptBytes / 1048576).toFixed(0)} MB of transcripts`,
      );
    }
  }
  for (const q of deferred) log(`  quirk ${q} found no session that fits`);

  const marks = await st.fi.finish();
  const sha = (m: number) => {
    const s = marks.get(m);
    if (!s) throw new Error(`fast-import exported no sha for mark ${m}`);
    return s;
  };
  git(["reset", "-q", "--hard", "main"]);
  for (const blob of st.missingBlobs) unlinkSync(join(dir, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
  rmSync(join(dir, ".git", "bench-marks"), { force: true });

  const manifest: EntireRepoManifest = {
    version: ENTIRE_REPO_VERSION,
    seed,
    sessions: count,
    min_kb: minKb,
    repo: dir,
    transcript_bytes: st.transcriptBytes,
    session_bytes: st.sessionBytes,
    quirks: st.quirks,
    session_list: st.sessions.map(({ commitMarks, ...rest }) => ({ ...rest, commits: commitMarks.map(sha) })),
    checkpoint_list: st.checkpoints.map(({ commitMarks, ...rest }) => ({ ...rest, commits: commitMarks.map(sha) })),
    expected_units: st.expected.map(({ commit, ...rest }) => ({
      ...rest,
      session_id: st.recordedIds.get(rest.session_id) ?? rest.session_id,
      commit_sha: sha(commit),
    })),
    missing_blobs: st.missingBlobs,
    seconds: (Date.now() - t0) / 1000,
  };
  log(
    `  ${st.sessions.length} sessions, ${st.checkpoints.length} checkpoints, ${(st.transcriptBytes / 1048576).toFixed(1)} MB of transcripts in ${manifest.seconds.toFixed(1)} s → ${dir}`,
  );
  return manifest;
}
