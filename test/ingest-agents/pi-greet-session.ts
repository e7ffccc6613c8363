/**
 * The hand-worked Pi session of pi.test.ts and pi-end-to-end.test.ts: Pi
 * (claude-sonnet-4-6) writes greet.py, edits it, fails an edit, adds a
 * function on a branch the person then abandons, and renames on the new
 * branch. Times are seconds after `start` (11:00:00Z on 2026-03-02).
 *
 * line  s    entry                                                 branch
 *  1     0   session header (v3, cwd)
 *  2     0   model_change anthropic/claude-sonnet-4-6              active
 *  3     0   thinking_level_change medium                          active
 *  4    10   user "create greet.py …"                              active   prompt 1
 *  5    15   assistant, stopReason error, all usage 0              active   (no API call)
 *  6    40   assistant: write greet.py (G1, 4 lines)  call tc1     active   API 1
 *  7    41   toolResult tc1 ok
 *  8    60   assistant: edit (old form oldText/newText) tc2        active   API 2
 *  9    61   toolResult tc2 ok → G2 (line 2 rewritten)
 * 10    80   assistant: edit edits[] whose oldText is absent tc3   active   API 3
 * 11    81   toolResult tc3 isError
 * 12    90   assistant: text                                       active   API 4
 * 13   200   user "also add a farewell function"                   OFF      prompt 2
 * 14   230   assistant: edit adds farewell (3 lines) tc5           OFF      API 5
 * 15   231   toolResult tc5 ok → G3 (7 lines, on disk)             OFF
 * 16   240   assistant: text                                       OFF      API 6
 * 17   600   branch_summary, child of line 12 (/tree back)         active
 * 18   610   user "rename greet to hello instead"                  active   prompt 3
 * 19   640   assistant: edit edits[2] on G3 tc7 → G4               active   API 7
 * 20   641   toolResult tc7 ok
 * 21   660   assistant: bash "python3 greet.py" tc8                active   API 8
 * 22   662   toolResult tc8 ok
 * 23   670   assistant: text                                       active   API 9
 * 24   680   label on line 19's entry                              active
 * 25   681   custom (extension state)                              active
 * 26   682   "future_entry" (a type this adapter does not know)    active (the leaf)
 */
import { PiLog, text, thinking, toolCall } from "./pi-log";

export const G1 = 'def greet(name):\n    return "hi " + name\n\nprint(greet("pi"))\n';
export const G2 = 'def greet(name):\n    return f"hello {name}"\n\nprint(greet("pi"))\n';
export const G3 =
  'def greet(name):\n    return f"hello {name}"\n\ndef farewell(name):\n    return f"bye {name}"\n\nprint(greet("pi"))\n';
export const G4 =
  'def hello(name):\n    return f"hello {name}"\n\ndef farewell(name):\n    return f"bye {name}"\n\nprint(hello("pi"))\n';

export const GREET_SESSION_ID = "5e551011-aaaa-4bbb-8ccc-000000000001";
export const GREET_START = "2026-03-02T11:00:00.000Z";

/**
 * Tokens per API call (input, output, cacheRead, cacheWrite), in file order, and each call's cost at
 * claude-sonnet-4-6's prices ($3 input, $15 output, $3.75 5-minute cache write, $0.30 cache read per
 * million tokens): e.g. API 1 = 1200·3 + 300·15 + 2000·3.75 + 0·0.30 = 15,600 µ$.
 */
export const GREET_USAGE: [number, number, number, number][] = [
  [1200, 300, 0, 2000], // API 1: 3600 + 4500 + 0 + 7500 = 15,600 µ$
  [50, 120, 2000, 400], // API 2: 150 + 1800 + 600 + 1500 = 4,050 µ$
  [40, 90, 2400, 200], // API 3: 120 + 1350 + 720 + 750 = 2,940 µ$
  [30, 20, 2600, 100], // API 4: 90 + 300 + 780 + 375 = 1,545 µ$
  [60, 150, 2700, 300], // API 5 (abandoned branch): 180 + 2250 + 810 + 1125 = 4,365 µ$
  [20, 10, 3000, 0], // API 6 (abandoned branch): 60 + 150 + 900 = 1,110 µ$
  [70, 160, 2700, 500], // API 7: 210 + 2400 + 810 + 1875 = 5,295 µ$
  [25, 40, 3200, 50], // API 8: 75 + 600 + 960 + 187.5 = 1,822.5 µ$
  [15, 30, 3250, 0], // API 9: 45 + 450 + 975 = 1,470 µ$
];
/** Σ input 1,510; Σ output 920; Σ cache read 21,850; Σ cache write 3,550; cost 38,197.5 µ$ (= 1510·3 + 920·15 + 3550·3.75 + 21850·0.3). */
export const GREET_COST_USD = 0.0381975;

/** The session file; `path(p)` is how the agent names file `p` (relative, or absolute under the cwd). */
export function greetSession(cwd: string): string {
  const u = (k: number) => ({
    input: GREET_USAGE[k][0],
    output: GREET_USAGE[k][1],
    cacheRead: GREET_USAGE[k][2],
    cacheWrite: GREET_USAGE[k][3],
  });
  const log = new PiLog({ id: GREET_SESSION_ID, cwd, start: GREET_START });
  log.at(0).modelChange();
  log.thinkingLevel("medium");
  log.at(10).user("create greet.py with a greet function and call it");
  log.at(15).assistant([], { input: 0, output: 0 }, { stopReason: "error", errorMessage: "overloaded_error" });
  log.at(40).assistant([thinking("a small script"), toolCall("tc1", "write", { path: "greet.py", content: G1 })], u(0));
  log.at(41).result("tc1", "write", "Successfully wrote 61 bytes to greet.py");
  log.at(60).assistant(
    [
      toolCall("tc2", "edit", {
        path: "greet.py",
        oldText: '    return "hi " + name\n',
        newText: '    return f"hello {name}"\n',
      }),
    ],
    u(1),
  );
  log.at(61).result("tc2", "edit", "Successfully replaced text in greet.py.", false, {
    diff: '-2     return "hi " + name\n+2     return f"hello {name}"',
    firstChangedLine: 2,
  });
  log.at(80).assistant(
    [
      toolCall("tc3", "edit", {
        path: "greet.py",
        edits: [{ oldText: 'print(greet("world"))', newText: 'print(greet("you"))' }],
      }),
    ],
    u(2),
  );
  log
    .at(81)
    .result(
      "tc3",
      "edit",
      "Could not find the exact text in greet.py. The old text must match exactly including all whitespace and newlines.",
      true,
      {},
    );
  const done = log.at(90).assistant([text("greet.py is ready.")], u(3));
  log.at(200).user("also add a farewell function");
  log.at(230).assistant(
    [
      toolCall("tc5", "edit", {
        path: `${cwd}/greet.py`,
        edits: [
          {
            oldText: '\nprint(greet("pi"))\n',
            newText: '\ndef farewell(name):\n    return f"bye {name}"\n\nprint(greet("pi"))\n',
          },
        ],
      }),
    ],
    u(4),
  );
  log.at(231).result("tc5", "edit", "Successfully replaced 1 block(s) in greet.py.", false, { diff: "…" });
  log.at(240).assistant([text("Added farewell.")], u(5));
  log.branchFrom(done);
  log.at(600).other("branch_summary", {
    fromId: done,
    summary: "The user asked for a farewell function; it was added to greet.py.",
  });
  log.at(610).user("rename greet to hello instead");
  const rename = log.at(640).assistant(
    [
      toolCall("tc7", "edit", {
        path: "@greet.py",
        edits: [
          { oldText: "def greet(name):", newText: "def hello(name):" },
          { oldText: 'print(greet("pi"))', newText: 'print(hello("pi"))' },
        ],
      }),
    ],
    u(6),
  );
  log.at(641).result("tc7", "edit", "Successfully replaced 2 block(s) in greet.py.", false, { diff: "…" });
  log.at(660).assistant([toolCall("tc8", "bash", { command: "python3 greet.py" })], u(7));
  log.at(662).result("tc8", "bash", "hello pi\n");
  log.at(670).assistant([text("Renamed greet to hello; it prints hello pi.")], u(8));
  log.at(680).other("label", { targetId: rename, label: "rename" });
  log.at(681).other("custom", { customType: "my-extension", data: { count: 1 } });
  log.at(682).other("future_entry", { note: "a type from a newer Pi" });
  return log.text();
}
