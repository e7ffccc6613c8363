/**
 * The SWE-chat paper's published numbers that its data lets us recompute
 * (research/swe-chat.md §7, with the release each comes from), in the order
 * the notebook and the report show them.
 */
export const PUBLISHED = {
  /** Abstract (v1): share of sessions with agent_percentage ≥ 99 and = 0. */
  vibeShare: { value: 41, source: "abstract, v1" },
  humanOnlyShare: { value: 23, source: "abstract, v1" },
  /** Abstract and website (v1), "Table 3". */
  survival: { value: 44.3, source: "Table 3, v1" },
  /** Figs. 7 and 29 (v1): vibe coding's tokens and dollars per committed line over collaborative coding's. */
  vibeOverCollaborativeEffort: { value: 3, source: 'Figs. 7 and 29, v1 ("roughly 3×")' },
  /** Fig. 25 (v2 notebook): the 14-day rolling vibe share, its February low and its last day. */
  rollingVibeFebruaryLow: { value: 18.3, source: "Fig. 25, v2" },
  rollingVibeLast: { value: 52.6, day: "2026-09-04", source: "Fig. 25, v2" },
  /** Table 5 (v2 notebook, nimbus excluded, 1,996,558 calls): % of calls per category. */
  toolCategories: {
    value: {
      read: 14.7,
      grep: 7.7,
      glob: 0.7,
      "bash:file": 12.3,
      "bash:build": 5.9,
      "bash:net": 1.6,
      bash: 15.7,
      "git/gh": 10.5,
      write: 2.3,
      edit: 14.0,
      web: 0.3,
      agent: 5.7,
      mcp: 1.4,
      TodoWrite: 0.4,
      ToolSearch: 0.6,
      AskUserQuestion: 0.4,
      Skill: 0.4,
      EnterPlanMode: 0.0,
      ExitPlanMode: 0.1,
      other: 5.3,
    } as Record<string, number>,
    source: "Table 5, v2",
  },
  /** Website (v1): "understand" is the first intent. */
  understandShare: { value: 19.0, source: "Fig. 19a / website, v1" },
  /** Abstract (v1): users push back in 44 % of turns; agents ask for clarification in 1.4 %. */
  pushbackShare: { value: 44, source: "abstract, v1" },
  clarificationShare: { value: 1.4, source: "abstract, v1" },
  /** Website (v1): 47 % of vibe-coding users act as expert nitpickers. */
  nitpickersAmongVibe: { value: 47, source: "website, v1" },
  /** v2 notebook: share of sessions with session_success ≥ 50 (Fig. 6). */
  successAtLeast50: { value: 87.5, source: "Fig. 6, v2" },
} as const;
