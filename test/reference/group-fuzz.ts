/**
 * Random timelines for groups (metrics.md §1b), as real Entire repositories (group-world.ts): up to three
 * sessions taking turns (often on one file), Writes and Edits, a person's edits between the calls and before
 * commits, commits of everything or of some files, commits without a trailer, branches created and switched,
 * merges of main into a branch, cherry-picks (copies), a trailer copied onto a new commit, ties between sessions' times, records without times, a sub-agent's nested calls, Entire's initial_attribution on some folders, commits naming only some
 * of the sessions at work. Deterministic per seed. Used by the reference's differential fuzzing and the
 * product's property test.
 */
import { GroupWorld } from "./group-world";

/** mulberry32: a small seeded generator. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILES = ["one.txt", "two.txt", "src/three.txt"];
const MAIN_FILE = "docs/main.txt";
const SESSIONS = ["A", "B", "C"];

export interface FuzzOptions {
  /** How many steps (calls, edits, commits, branch moves). */
  steps?: number;
  /** false: no checkpoints branch, the sessions' transcripts written beside the repository (GroupWorld.writeTranscripts). */
  entire?: boolean;
}

/** Builds (and finishes) the repository of `seed`; the caller cleans up. */
export function randomWorld(seed: number, options: FuzzOptions = {}): GroupWorld {
  const rnd = random(seed);
  const any = <T>(xs: readonly T[]): T => pick(rnd, xs);
  // A quarter of the repositories store session A as old Entire did (a part per checkpoint).
  const w = new GroupWorld({ "one.txt": "o1\no2\no3\n", "two.txt": "t1\nt2\n" }, new Set(rnd() < 0.25 ? ["A"] : []));
  let fresh = 0;
  const token = (who: string) => `${who}${++fresh}`;
  const sessions = SESSIONS.slice(0, 1 + Math.floor(rnd() * 3));
  // Sometimes session B works through a sub-agent (nested records with times of their own).
  if (rnd() < 0.25) w.subagent.add("B");
  // Turns on one file are the common case: sessions prefer a "hot" file.
  const hot = any(FILES);
  const file = () => (rnd() < 0.6 ? hot : any(FILES));
  const branches = ["main"];
  const steps = options.steps ?? 6 + Math.floor(rnd() * 14);
  // Where the timeline leaves main for a while: work on a branch, a person's commit on main, main merged back
  // into the branch (or not: the session's next commits then sit on two branches).
  const detour = rnd() < 0.5 ? Math.floor(rnd() * steps) : -1;
  for (let i = 0; i < steps; i++) {
    if (i === detour) {
      detourOnce(w, rnd, sessions, file, token, branches);
      continue;
    }
    const r = rnd();
    if (r < 0.5) agentCall(w, any(sessions), file(), rnd, token);
    else if (r < 0.62) personEdit(w, file(), rnd, token);
    else if (r < 0.85) commit(w, rnd, sessions);
    else if (r < 0.93) {
      // A new branch from here or from main, or back to one we have.
      if (rnd() < 0.5) {
        const name = `b${branches.length}`;
        if (w.checkout(name, true, rnd() < 0.5 ? null : "main")) branches.push(name);
      } else w.checkout(any(branches));
    } else if (r < 0.97) {
      if (w.branch() !== "main") w.merge("main");
    } else if (w.linked.length > 0 && w.dirty().length === 0) w.cherryPick(any(w.linked));
  }
  if (w.activeSessions().length > 0) commit(w, rnd, sessions);
  if (options.entire === false) w.writeTranscripts();
  else w.finish();
  return w;
}

function detourOnce(
  w: GroupWorld,
  rnd: () => number,
  sessions: string[],
  file: () => string,
  token: (who: string) => string,
  branches: string[],
): void {
  const home = w.branch();
  const name = `d${branches.length}`;
  if (!w.checkout(name, true)) return;
  branches.push(name);
  agentCall(w, pick(rnd, sessions), file(), rnd, token);
  commit(w, rnd, sessions);
  if (w.dirty().length > 0) w.commit("rest", w.activeSessions());
  if (!w.checkout(home === name ? "main" : home)) return;
  // The person's work on main goes to a file of its own, so that merging it back rarely conflicts.
  personEdit(w, MAIN_FILE, rnd, token);
  if (rnd() < 0.3) agentCall(w, pick(rnd, sessions), file(), rnd, token);
  commit(w, rnd, sessions);
  const back = w.branch();
  if (w.dirty().length > 0) w.commit("rest", w.activeSessions());
  if (!w.checkout(name)) return;
  if (rnd() < 0.7) w.merge(back, rnd() < 0.1 ? w.activeSessions() : []);
  // After the merge the agent may edit what main brought (its lines are the merge's, not the next commit's).
  agentCall(w, pick(rnd, sessions), rnd() < 0.5 ? MAIN_FILE : file(), rnd, token);
}

function agentCall(
  w: GroupWorld,
  session: string,
  path: string,
  rnd: () => number,
  token: (who: string) => string,
): void {
  const text = w.read(path);
  const lines = text === null ? [] : text.split("\n").slice(0, -1);
  // Mostly a second; sometimes no delay (ties), sometimes records without a time (a call, or only its result).
  const d = rnd();
  const delay = d < 0.2 ? 0 : d < 0.24 ? -1 : d < 0.28 ? -2 : 1;
  if (text === null || lines.length === 0 || rnd() < 0.2) {
    // Write: keep some lines, add new ones.
    const kept = lines.filter(() => rnd() < 0.7);
    const out = [...kept];
    const n = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < n; k++) out.splice(Math.floor(rnd() * (out.length + 1)), 0, token(session));
    w.write(session, path, `${out.join("\n")}\n`, delay);
    return;
  }
  // Edit of one line that occurs once: replace it, insert after it, or delete it.
  const unique = lines.filter((l) => lines.indexOf(l) === lines.lastIndexOf(l) && l !== "");
  if (unique.length === 0) return;
  const line = unique[Math.floor(rnd() * unique.length)];
  const kind = rnd();
  const added = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => token(session));
  const oldString = `${line}\n`;
  const newString = kind < 0.4 ? `${added.join("\n")}\n` : kind < 0.85 ? `${line}\n${added.join("\n")}\n` : "";
  if (!text.startsWith(oldString) && !text.includes(`\n${oldString}`)) return;
  w.edit(
    session,
    path,
    text.startsWith(oldString) ? oldString : `\n${oldString}`,
    text.startsWith(oldString) ? newString : `\n${newString}`,
    delay,
  );
}

function personEdit(w: GroupWorld, path: string, rnd: () => number, token: (who: string) => string): void {
  const text = w.read(path) ?? "";
  const lines = text === "" ? [] : text.split("\n").slice(0, -1);
  const r = rnd();
  if (r < 0.4 || lines.length === 0) lines.push(token("P"));
  else if (r < 0.75) lines[Math.floor(rnd() * lines.length)] = token("P");
  else lines.splice(Math.floor(rnd() * lines.length), 1);
  // Now and then the person deletes the file.
  w.person({ [path]: rnd() < 0.08 ? null : lines.length === 0 ? "" : `${lines.join("\n")}\n` });
}

function commit(w: GroupWorld, rnd: () => number, sessions: string[]): void {
  if (rnd() < 0.15) personEdit(w, pick(rnd, FILES), rnd, (who) => `${who}${Math.floor(rnd() * 1e6)}`);
  // Entire adds a folder for each session at work since its last checkpoint, sometimes for an idle one too;
  // some commits carry no trailer at all (the work in them is outside every group).
  const extra = rnd() < 0.15 ? [pick(rnd, sessions)] : [];
  const all = [...new Set([...w.activeSessions(), ...extra])].filter((s) => w.hasSession(s));
  // Sometimes only some of the sessions at work (the others' lines in the commit are then theirs only later).
  const named = rnd() < 0.1 ? [] : rnd() < 0.2 ? all.filter(() => rnd() < 0.5) : all;
  // Now and then a person copies an earlier commit's trailer onto a new commit: one checkpoint on two commits.
  if (w.checkpointIds.length > 0 && rnd() < 0.05) {
    w.commitReusing(pick(rnd, w.checkpointIds));
    return;
  }
  const dirty = w.dirty();
  const some = dirty.length > 1 && rnd() < 0.25 ? dirty.filter(() => rnd() < 0.5) : [];
  // Entire's own numbers on half the folders: a rounded percentage, 0 where nothing was committed.
  const meta = Object.fromEntries(
    named.map((name) => {
      if (rnd() < 0.5) return [name, {}];
      const total = Math.floor(rnd() * 6);
      const agent = Math.floor(rnd() * (total + 1));
      return [
        name,
        {
          initial_attribution: {
            agent_lines: agent,
            total_committed: total,
            agent_percentage: total === 0 ? 0 : Math.round((1000 * agent) / total) / 10,
          },
        },
      ];
    }),
  );
  w.commit("work", named, some.length > 0 ? some : null, meta);
}

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
