import type { TaskLabel } from "../taxonomy";

/**
 * A transparent baseline: an ordered list of patterns over the message
 * text; the first rule that fires decides the label, and the answer names
 * it. It is a baseline to compare an LLM against and to label offline, not
 * a substitute for one (its agreement is measured in the README).
 */

export interface RuleLabel {
  label: TaskLabel;
  /** The id of the rule that fired (`plan:<id>` when a plan's title decided). */
  rule: string;
}

interface Text {
  /** Lower-cased, trimmed whole message, URLs replaced by "url". */
  all: string;
  /** The part that carries the request: the first 400 characters. */
  head: string;
  /** The opening: up to the first blank line, at most 250 characters (where "fix" means the request, not a later aside). */
  lead: string;
  /** The first line. */
  first: string;
}

export interface Rule {
  id: string;
  label: TaskLabel;
  /** What the rule looks for, in words (shown in the README and reports). */
  describe: string;
  test: (t: Text) => boolean;
}

const ACK_WORDS =
  "yes|yep|yup|yeah|y|no|nope|ok|okay|k|sure|go ahead|proceed|continue|go on|do it|do that|sounds good|agreed|correct|right|exactly|please|thanks|i like option \\w+|option \\w+|\\d+|[a-z]|then|that|it|now|what you were doing";
const ACK = new RegExp(`^(?:(?:${ACK_WORDS})(?:[\\s,!.]+|$))+$`);
const EXEC_VERB =
  /^(?:(?:ok|okay|yes|yeah|so|and|now|then|great|good)[,!.]?\s+)*(?:(?:please|pls|can you|could you|would you|let'?s|go|now|then|ok)\s+)*(?:do the\s+|just\s+)?(commit|push|run|execute|deploy|build|install|merge|rebase|checkout|check out|release|publish|tag|restart|stash|pull)\b/;
const ERROR_OUTPUT =
  /(^|\n)\s*(error|fatal|traceback|exception|panic)\b[:\s(]|exit code [1-9]|failed to compile|module not found|cannot find module|command not found|no such file or directory|segmentation fault|\berror in\b|\bundefined is not\b|is not a function|\((goconst|no-[a-z-]+)\)|no-use-before-define/;
const ISSUE_REPORT =
  /\b(here'?s the issue text|describe the bug|steps to reproduce|expected behaviou?r|actual behaviou?r|strange behaviou?r|unexpected behaviou?r|traceback \(most recent call last\))/;
const DEBUG =
  /\b(check why|figure out why|find out why|investigate|deep dive|root cause|check (the |these |those )?fail\w*|what('s| is) (causing|wrong)|why (does|do|did|is|are|would|was|were)\b[^.?\n]*\b(fail|failing|fails|failed|break|broken|crash|error|wrong|stale|empty|missing|not))|(?<![-/\w])debug(?![-/.\w])/;
const FIX =
  /\b(fix|fixes|fixing|resolve|repair|bug|broken|doesn'?t work|does not work|don'?t work|isn'?t working|not working|still not|nothing changed|not showing|doesn'?t show|can'?t see|crash(es|ed)?|failing|fails|failed|error|errors|exception|warnings?|regression)\b|\baddress\b[^.\n]*\bissues?\b/;
const QUESTION_OPENING = /^(how|what|why|where|when|which|who)\b/;
const REVIEW = /\b(review|audit|code quality|look over|critique)\b/;
const TESTS =
  /\b(write|add|create|extend|implement|upgrade|improve|increase|cover|set up|setup|build)\s+(?:[\w@./-]+\s+){0,4}(tests?|test (harness|suite|coverage)|specs|coverage)\b|\btest (harness|coverage|suite)\b/;
const DOC_TARGET =
  /\b(readme|readmes|changelog|documentation|docs?|docstrings?|comments?|jsdoc|godoc|install instructions|instructions)\b|[\w./-]+\.md\b/;
const DOC_VERB =
  /\b(write|update|add|added|create|generate|put|document (the|this|how|all|every|our|it)|word|rewrite|reword|link|mention|say|simplify|clarify|improve|expand|shorten)\b/;
const TRANSFORM =
  /\b(convert|migrate|port (it|this|the)|translate|transpile|upgrade|downgrade|bump|pin|update the versions?|update (the )?version|to typescript|to python|to esm|to commonjs)\b/;
const RENAME = /\b(change|rename)\b[^.\n]*`[^`]+`\s+to\s+`[^`]+`/;
const REFACTOR =
  /\b(refactor|rename|reorgani[sz]e|restructure|clean ?up|simplify|extract|dedupe|deduplicate|de-duplicate|consolidate|split [^.\n]* into|better organi[sz]ed|not needed|remove (the )?(unused|dead|redundant|duplicate))\b|\bmove\b[^\n]{0,80}?\b(to|into)\b[^\n]{0,40}?(folder|dir|directory|file|module|package|`|\/)/;
const DATA =
  /\b(analy[sz]e (the )?(data|logs|results|metrics)|dataset|csv|sql|query|queries|chart|plot|histogram|metrics|statistics|dashboard|aggregate)\b/;
const PLAN =
  /\b(plan|design|approach|architecture|proposal|propose|strategy|recommendations?|trade-?offs?|pros and cons|spec|specification|roadmap)\b|^(should|would it be better|is it better|what if we|i feel|i think we|or wait)\b/;
const QUESTION =
  /\?\s*$|^(what|how|why|where|when|which|who|whose|is|are|does|do|did|can|could|should|would|will|explain|tell me|describe|summari[sz]e|overview)\b|^(give me|i want|i'?d like|provide)\s+(a |an )?(\w+ ){0,2}(overview|summary|explanation|walkthrough|rundown)\b/;
/** "can you add …?" is a request in question form, not a question. */
const REQUEST_FORM =
  /(^|[.?!]\s+)(can|could|would) (you|we) (also |please |just )?(add|implement|create|make|change|update|move|rename|remove|delete|write|generate|build|set up|bring|put|replace|use|support|allow|enable|fix|refactor|convert)\b/;
const PROJECT =
  /\b(this|these|those|it|they|them|our|my|we|us)\b|\bthe (\w+ ){0,2}(repo|repository|code|codebase|project|file|files|function|class|module|tests?|action|workflow|pipeline|ci|pr|commit|commits|branch|cli|agent|agents|skill|app|config|script|build|history|list|server|database|db|schema|api)\b|`|@|\/|\.\w{1,4}\b|\b\w+[_:]\w+\b|\b\w*\d\w*-[\w-]+/;
const META =
  /\byour\b[^.?!\n]{0,20}\b(sandbox|context window|model|quota|limits?|permissions|memory)\b|\b(which model|what model are you|are you (claude|gpt|gemini)|billing|rate limit|token limit|usage limit)\b/;
const NEW =
  /\b(add|implement|create|build|make|support|allow|enable|introduce|want|need|update|change|replace|let'?s|generate|set up|setup|run an?|we'?d (also )?like|i'?d like|would like)\b/;

const isQuestion = (t: Text) => QUESTION.test(t.head) && !REQUEST_FORM.test(t.head);

/** The rules in the order they are tried. */
export const RULES: readonly Rule[] = [
  { id: "empty", label: "greeting", describe: "no letters or digits", test: (t) => !/[\p{L}\p{N}]/u.test(t.all) },
  {
    id: "greeting",
    label: "greeting",
    describe: "only a greeting or ping (hi, hello, hey, ping, test)",
    test: (t) =>
      /^(hi|hello|hey|hiya|yo|ping|test|good (morning|afternoon|evening))[\s!.?]*(there|claude|codex)?[\s!.?]*$/.test(
        t.all,
      ),
  },
  {
    id: "thanks",
    label: "other",
    describe: "short thanks or praise",
    test: (t) =>
      t.all.length <= 60 &&
      /^(thanks|thank you|thx|ty|great|perfect|nice|awesome|cool|lgtm|looks good|well done|good job)\b/.test(t.all),
  },
  {
    id: "acknowledgement",
    label: "other",
    describe: "only yes/ok/proceed/do it/continue, or picking an option ('1', 'Option C')",
    test: (t) => ACK.test(t.all),
  },
  {
    id: "meta",
    label: "meta-question",
    describe: "about the assistant's sandbox, model, quota, limits, billing",
    test: (t) => META.test(t.head),
  },
  {
    id: "debug",
    label: "debug",
    describe: "investigate / deep dive / check why … fails / debug, without asking to fix",
    test: (t) => DEBUG.test(t.head) && !/\bfix/.test(t.head),
  },
  {
    id: "error-output",
    label: "bug-fix",
    describe: "pasted error output or a stack trace (a bare trace defaults to a fix)",
    test: (t) => ERROR_OUTPUT.test(t.all),
  },
  {
    id: "issue-report",
    label: "bug-fix",
    describe: "an issue report (issue text, describe the bug, steps to reproduce, expected / strange behaviour)",
    test: (t) => ISSUE_REPORT.test(t.all),
  },
  {
    id: "execute-verb",
    label: "execute",
    describe:
      "starts (after an acknowledgement or 'please/can you') with commit, push, run, deploy, build, install, merge …",
    test: (t) => EXEC_VERB.test(t.first),
  },
  {
    id: "fix",
    label: "bug-fix",
    describe: "fix / bug / error / not working / failing in the opening (not a how/what/why question)",
    test: (t) => FIX.test(t.lead) && !(QUESTION_OPENING.test(t.lead) && /\?\s*$/.test(t.lead)),
  },
  {
    id: "review",
    label: "code-review",
    describe: "review / audit of code or a change",
    test: (t) => REVIEW.test(t.head),
  },
  {
    id: "docs",
    label: "generate-docs",
    describe: "write or update a README, changelog, docs, comments or a .md file",
    test: (t) => DOC_TARGET.test(t.lead) && DOC_VERB.test(t.lead),
  },
  {
    id: "tests",
    label: "tests",
    describe: "write, add or improve tests, a test harness or coverage",
    test: (t) => TESTS.test(t.head),
  },
  {
    id: "transform",
    label: "transformation",
    describe: "convert, migrate, port, upgrade, bump or pin versions",
    test: (t) => TRANSFORM.test(t.head),
  },
  { id: "rename", label: "refactor", describe: "change or rename `a` to `b`", test: (t) => RENAME.test(t.head) },
  {
    id: "refactor",
    label: "refactor",
    describe: "refactor, reorganise, simplify, extract, deduplicate, move … to a folder or file",
    test: (t) => REFACTOR.test(t.head),
  },
  {
    id: "data",
    label: "data-analysis",
    describe: "data, CSV, SQL, queries, charts, metrics",
    test: (t) => DATA.test(t.head),
  },
  {
    id: "planning",
    label: "planning",
    describe: "plan, design, approach, proposal, recommendations; 'should …', 'I feel …', 'or wait'",
    test: (t) => PLAN.test(t.head),
  },
  {
    id: "question-project",
    label: "explain",
    describe: "a question (not a request in question form) about this project's code, files or setup",
    test: (t) => isQuestion(t) && PROJECT.test(t.head),
  },
  { id: "question-general", label: "question", describe: "any other question", test: isQuestion },
  {
    id: "new-feature",
    label: "new-feature",
    describe: "add, implement, create, make, support, allow, update, change, I'd like …",
    test: (t) => NEW.test(t.head),
  },
];

/** When no rule fires. */
export const DEFAULT_RULE = { id: "default", label: "other" as TaskLabel, describe: "no rule fired" };

const PLAN_PREFIX = /^(implement|execute|follow) the following plan:?\s*/;

function normalise(text: string): Text {
  // URLs name places, not intents ("…/docs/architecture…" is not a docs request).
  const all = text
    .replace(/\r\n/g, "\n")
    .replace(/\bhttps?:\/\/\S+/gi, "url")
    .trim()
    .toLowerCase();
  const lead = all.split(/\n\s*\n/)[0].slice(0, 250);
  return { all, head: all.slice(0, 400), lead, first: all.split("\n")[0] };
}

/** Labels one message and says which rule fired. */
export function classifyByRules(text: string): RuleLabel {
  const t = normalise(text);
  // "Implement the following plan: # <title> …" (Claude Code plan mode): the plan's title says what kind of work it is.
  if (PLAN_PREFIX.test(t.all)) {
    const rest = t.all.replace(PLAN_PREFIX, "");
    const title = rest.match(/^#+\s*(?:plan:\s*)?(.+)$/m)?.[1] ?? rest.split("\n")[0];
    const inner = classifyText(normalise(title));
    return { label: inner.label, rule: `plan:${inner.rule}` };
  }
  return classifyText(t);
}

function classifyText(t: Text): RuleLabel {
  for (const r of RULES) if (r.test(t)) return { label: r.label, rule: r.id };
  return { label: DEFAULT_RULE.label, rule: DEFAULT_RULE.id };
}
