/**
 * A resumed Claude Code session, in a real repository: session A Writes f.txt (2 lines), committed; the
 * resumed session B's file starts with A's records (same `toolu_`/`msg_` ids), then Writes g.txt (1 line),
 * committed after. Both files are in `logs` (a folder beside the repository, `<repo>-logs`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ClaudeLog, writeResult } from "./claude-log";
import { TestRepo } from "./git-repo";

export interface ResumedSessions {
  repo: TestRepo;
  logs: string;
  fCommit: string;
  gCommit: string;
}

export function writeResumedSessions(prefix: string): ResumedSessions {
  const repo = new TestRepo(prefix);
  const logs = `${repo.dir}-logs`;
  repo.commit("initial", { "README.md": "readme\n" });
  const fCommit = repo.commit("add f", { "f.txt": "f1\nf2\n" });
  const gCommit = repo.commit("add g", { "g.txt": "g1\n" });
  const a = new ClaudeLog({ sessionId: "sess-a", cwd: repo.dir })
    .prompt("write f")
    .call("toolu_f", "Write", { file_path: join(repo.dir, "f.txt"), content: "f1\nf2\n" })
    .result("toolu_f", writeResult(join(repo.dir, "f.txt"), "f1\nf2\n", null));
  const b = new ClaudeLog({ sessionId: "sess-b", cwd: repo.dir })
    .prompt("now g")
    .call("toolu_g", "Write", { file_path: join(repo.dir, "g.txt"), content: "g1\n" })
    .result("toolu_g", writeResult(join(repo.dir, "g.txt"), "g1\n", null));
  mkdirSync(logs);
  writeFileSync(join(logs, "sess-a.jsonl"), a.text());
  // The resumed file: A's records as they were (their timestamps come first), then B's own.
  writeFileSync(join(logs, "sess-b.jsonl"), a.text() + b.text());
  return { repo, logs, fCommit, gCommit };
}
