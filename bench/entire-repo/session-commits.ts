/**
 * One session's commits on main, by its quirk: the prepare commit, then the
 * person's commit(s) with the trailer, the side branches a quirk needs
 * (feature/notes-k, release/1.x, a later squash), and the checkpoint(s) on
 * entire/checkpoints/v1. Units `analyze` should form go to `st.expected`.
 * The order of the seeded draws (subjects, trailers, commit times,
 * checkpoint ids, attributions) fixes the repository: keep it.
 */
import { Rng } from "../generate-corpus";
import { attribution, writeCheckpoint } from "./checkpoint";
import type { Change, Person } from "./fast-import";
import type { Quirk } from "./manifest";
import { commitFiles, type SessionLog, statesBefore, touched } from "./session-log";
import { type BuildState, checkpointId, type PendingSession, SAM, setFiles, subject, tick, trailer } from "./state";

export interface SessionJob {
  /** Position in the build order (names side branches and files). */
  k: number;
  s: SessionLog;
  quirk: Quirk | null;
  /** The manifest row of `s`; its checkpoints, commit marks and variants are filled in here. */
  entry: PendingSession;
  person: Person;
  prepare: Map<string, string | null>;
  final: Map<string, string>;
  /** two-sessions: the next session, committed together with `s`. */
  partner: SessionLog | null;
  /** two-checkpoints: the prompt boundary where the first checkpoint ends. */
  split: number;
}

/** Writes one session's commits and checkpoints; returns how many following sessions it used up (the partner). */
export async function writeSession(st: BuildState, job: SessionJob): Promise<number> {
  const { k, s, quirk, entry, person, prepare, final, partner, split } = job;
  const variant = entry.variant;
  let used = 0;
  // 1. prepare: the session's files at their first pre-image (partner's too).
  const prep = new Map(prepare);
  let partnerFiles: ReturnType<typeof commitFiles> | null = null;
  if (partner) {
    partnerFiles = commitFiles(partner);
    for (const [p, c] of partnerFiles.prepare) prep.set(p, c);
  }
  const prepChanges = setFiles(st, prep);
  if (prepChanges.length > 0) {
    st.head = await st.fi.commit({
      ref: "refs/heads/main",
      author: SAM,
      time: tick(st, s.firstTs / 1000 - 600),
      message: `Sync ${prepChanges.length} file(s) before the next change\n`,
      from: st.head,
      changes: prepChanges,
    });
  }
  const prepareMark = st.head;
  const beforeCommit = new Map<string, string>();
  for (const p of final.keys()) beforeCommit.set(p, st.tree.get(p) ?? "");
  const commitTime = () => tick(st, s.lastTs / 1000 + st.rng.int(60, 900));
  const id = checkpointId(st);
  const folder = {
    s,
    start: 0 as number | null,
    end: s.lines.length,
    files: touched(s, 0, s.lines.length),
    transcript: "full" as "full" | "none" | "nul",
  };
  const unit = (commit: number, ambiguity: string | null, cp = id, sid = s.id) =>
    st.expected.push({ session_id: sid, commit, checkpoint_id: cp, ambiguity, quirk });

  if (quirk === "two-checkpoints") {
    // Commit A carries the agent's files as they were when the split prompt came; commit B the session's commit.
    const idA = id;
    const stateA = statesBefore(s, split);
    const beforeA = new Map<string, string>();
    for (const p of stateA.keys()) beforeA.set(p, st.tree.get(p) ?? "");
    // Not Math.max: calls without a time (undefined) are skipped here, where Math.max would give NaN.
    // biome-ignore lint/complexity/useMathMinMax: see above
    const tA = tick(st, s.ts.slice(0, split).reduce((m, t) => (t > m ? t : m), 0) / 1000 + 120);
    const a = await st.fi.commit({
      ref: "refs/heads/main",
      author: person,
      time: tA,
      message: `${subject(st, s)}\n\n${trailer(st, idA)}`,
      from: st.head,
      changes: setFiles(st, new Map(stateA)),
    });
    st.head = a;
    const legacyFirst = st.sessions.filter((x) => x.quirk === "two-checkpoints").length % 4 === 0;
    if (legacyFirst) variant.push("legacy-id-first");
    await writeCheckpoint(
      st,
      idA,
      [
        {
          ...folder,
          end: split,
          files: touched(s, 0, split),
          legacyId: legacyFirst,
          attribution: attribution(st, s, beforeA, stateA, split),
        },
      ],
      tA + 5,
      quirk,
      [a],
    );
    const idB = checkpointId(st);
    const beforeB = new Map<string, string>();
    for (const p of final.keys()) beforeB.set(p, st.tree.get(p) ?? "");
    const b = await st.fi.commit({
      ref: "refs/heads/main",
      author: person,
      time: commitTime(),
      message: `${subject(st, s)}\n\n${trailer(st, idB)}`,
      from: st.head,
      changes: setFiles(st, final),
    });
    st.head = b;
    const startMissing = st.sessions.filter((x) => x.quirk === "two-checkpoints").length % 3 === 0;
    if (startMissing) variant.push("start-missing");
    await writeCheckpoint(
      st,
      idB,
      [
        {
          ...folder,
          start: startMissing ? null : split,
          files: touched(s, split, s.lines.length),
          attribution: attribution(st, s, beforeB, final, s.lines.length),
        },
      ],
      st.time + 5,
      quirk,
      [b],
    );
    entry.checkpoints.push(idA, idB);
    entry.commitMarks.push(a, b);
    unit(a, "multi-checkpoint-session", idA);
    unit(b, "multi-checkpoint-session", idB);
  } else if (quirk === "two-sessions" && partner && partnerFiles) {
    const all = new Map<string, string>([...final, ...partnerFiles.final]);
    for (const p of partnerFiles.final.keys()) beforeCommit.set(p, st.tree.get(p) ?? "");
    const c = await st.fi.commit({
      ref: "refs/heads/main",
      author: person,
      time: tick(st, Math.max(s.lastTs, partner.lastTs) / 1000 + 300),
      message: `${subject(st, s)}\n\n${trailer(st, id)}`,
      from: st.head,
      changes: setFiles(st, all),
    });
    st.head = c;
    const pFolder = {
      s: partner,
      start: 0,
      end: partner.lines.length,
      files: touched(partner, 0, partner.lines.length),
      transcript: "full" as const,
    };
    await writeCheckpoint(
      st,
      id,
      [{ ...folder, attribution: attribution(st, s, beforeCommit, final, s.lines.length) }, pFolder],
      st.time + 5,
      quirk,
      [c],
    );
    entry.checkpoints.push(id);
    entry.commitMarks.push(c);
    unit(c, "multi-session-checkpoint");
    unit(c, "multi-session-checkpoint", id, partner.id);
    st.sessionBytes += partner.bytes;
    st.sessions.push({
      index: partner.index,
      session_id: partner.id,
      quirk,
      variant: ["partner"],
      checkpoints: [id],
      commits: [],
      commitMarks: [c],
      bytes: partner.bytes,
      prompts: partner.prompts.length,
      edits: partner.edits.length,
      patched_files: partnerFiles.final.size,
    });
    used = 1; // the partner is used up
  } else if (quirk === "two-commits") {
    const paths2 = [...final.keys()].sort();
    const half = Math.ceil(paths2.length / 2);
    const msg = `${subject(st, s)}\n\n${trailer(st, id)}`;
    const c1 = await st.fi.commit({
      ref: "refs/heads/main",
      author: person,
      time: commitTime(),
      message: msg,
      from: st.head,
      changes: setFiles(st, new Map(paths2.slice(0, half).map((p) => [p, final.get(p)!]))),
    });
    const c2 = await st.fi.commit({
      ref: "refs/heads/main",
      author: person,
      time: tick(st),
      message: `${subject(st, s)}\n\n${trailer(st, id)}`,
      from: c1,
      changes: setFiles(st, new Map(paths2.slice(half).map((p) => [p, final.get(p)!]))),
    });
    st.head = c2;
    await writeCheckpoint(st, id, [{ ...folder, attribution: null }], st.time + 5, quirk, [c1, c2]);
    entry.checkpoints.push(id);
    entry.commitMarks.push(c1, c2);
    unit(c1, "multi-commit-checkpoint");
    unit(c2, "multi-commit-checkpoint");
  } else if (quirk === "merge") {
    // A side branch with a note, merged by the commit that carries the session's work and the trailer.
    const side = await st.fi.commit({
      ref: `refs/heads/feature/notes-${k}`,
      author: { name: "Kim", email: "kim@example.com" },
      time: tick(st),
      message: "docs: release notes draft\n",
      from: prepareMark,
      changes: [
        {
          path: `docs/notes/release-${k}.md`,
          content: `# Release notes ${k}\n\n- ${s.prompts[0]?.slice(0, 60) ?? "notes"}\n`,
        },
      ],
    });
    const changes = setFiles(
      st,
      new Map([
        ...final,
        [`docs/notes/release-${k}.md`, `# Release notes ${k}\n\n- ${s.prompts[0]?.slice(0, 60) ?? "notes"}\n`],
      ]),
    );
    const m = await st.fi.commit({
      ref: "refs/heads/main",
      author: person,
      time: commitTime(),
      message: `Merge branch 'feature/notes-${k}'\n\n${subject(st, s)}\n\n${trailer(st, id)}`,
      from: st.head,
      merge: side,
      changes,
    });
    st.head = m;
    await writeCheckpoint(st, id, [{ ...folder, attribution: null }], st.time + 5, quirk, [m]);
    entry.checkpoints.push(id);
    entry.commitMarks.push(m);
    unit(m, "merge-commit");
  } else {
    // One commit (the trailer left out for no-commit, naming an unstored checkpoint for unknown-checkpoint).
    const changes = setFiles(st, final);
    if (quirk === "missing-blob") {
      // Written as a loose object so fast-import can name it; deleted after the import (a mirror that dropped a large file).
      const big = Buffer.alloc(4.5 * 1048576);
      const r = new Rng(st.seed + k);
      for (let i = 0; i < big.length; i += 4) big.writeUInt32LE(Math.floor(r.next() * 4294967296), i);
      const sha = st.git(["hash-object", "-w", "--stdin"], big).trim();
      st.missingBlobs.push(sha);
      changes.push({ path: `assets/fixtures-${k}.bin`, sha });
    }
    const msg = quirk === "no-commit" ? `${subject(st, s)}\n` : `${subject(st, s)}\n\n${trailer(st, id)}`;
    const c = await st.fi.commit({
      ref: "refs/heads/main",
      author: person,
      time: commitTime(),
      message: msg,
      from: st.head,
      changes,
    });
    st.head = c;
    if (quirk !== "unknown-checkpoint") {
      await writeCheckpoint(
        st,
        id,
        [
          {
            ...folder,
            agent: quirk === "wrong-agent" ? "Gemini CLI" : undefined,
            legacyId: quirk === "legacy-id",
            transcript: quirk === "no-transcript" ? "none" : quirk === "unreadable-transcript" ? "nul" : "full",
            attribution: attribution(st, s, beforeCommit, final, s.lines.length),
          },
        ],
        st.time + 5,
        quirk,
        quirk === "no-commit" ? [] : [c],
      );
    } else {
      st.checkpoints.push({
        checkpoint_id: id,
        sessions: [s.id],
        commits: [],
        commitMarks: [c],
        quirk,
        transcript_start: [0],
        transcript_bytes: 0,
        stored: false,
      });
    }
    entry.checkpoints.push(id);
    entry.commitMarks.push(c);
    const ambiguity =
      {
        "missing-blob": "commit-unreadable",
        "no-transcript": "transcript-missing",
        "unreadable-transcript": "transcript-unreadable",
      }[quirk as string] ?? null;
    if (quirk !== "no-commit" && quirk !== "unknown-checkpoint") unit(c, ambiguity);
    if (quirk === "cherry-pick") {
      // release/1.x: a sync commit puts the touched files at their pre-commit content, then the copy (same diff, same patch id).
      const sync: Change[] = [];
      const copy: Change[] = [];
      for (const [p, text] of [...final].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        const before = beforeCommit.get(p);
        const had = prepare.has(p) ? prepare.get(p) !== null : before !== "";
        if ((had ? before : undefined) !== st.release.get(p)) {
          if (had) st.release.set(p, before!);
          else st.release.delete(p);
          sync.push({ path: p, content: had ? before! : null });
        }
        st.release.set(p, text);
        copy.push({ path: p, content: text });
      }
      if (sync.length > 0)
        st.releaseTip = await st.fi.commit({
          ref: "refs/heads/release/1.x",
          author: SAM,
          time: st.time + 1800,
          message: "Sync release branch\n",
          from: st.releaseTip,
          changes: sync,
        });
      st.releaseTip = await st.fi.commit({
        ref: "refs/heads/release/1.x",
        author: person,
        authorTime: st.time,
        time: st.time + 3600,
        message: msg,
        from: st.releaseTip,
        changes: copy,
      });
      entry.commitMarks.push(st.releaseTip);
      st.checkpoints[st.checkpoints.length - 1].commitMarks.push(st.releaseTip);
    }
    if (quirk === "body-mention") {
      const readme = (st.tree.get("README.md") ?? "") + `- ${s.prompts[0]?.slice(0, 50) ?? "docs"}\n`;
      st.head = await st.fi.commit({
        ref: "refs/heads/main",
        author: { name: "Jo", email: "jo@example.com" },
        time: tick(st, st.time + 1800),
        message: `docs: squash of review fixes (#${100 + k})\n\nSquashed commits:\n\n* fix typo\nEntire-Checkpoint: ${id}\n* update README\n\nCo-authored-by: Sam <sam@example.com>\n`,
        from: st.head,
        changes: setFiles(st, new Map([["README.md", readme]])),
      });
    }
  }
  return used;
}
