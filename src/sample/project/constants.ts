/** The sample project's setting: the fake home and repository root of the transcripts, its people and the models they use. */
import type { Person } from "../git";

export const HOME = "/home/dev";
export const ROOT = `${HOME}/sample-app`;
export const WORKTREE = `${ROOT}/.worktrees/2`;

export const MAYA: Person = { name: "Maya Chen", email: "maya.chen@example.com", tz: "+0100" };
export const TOM: Person = { name: "Tom Reyes", email: "tom.reyes@example.org", tz: "+0000" };

export const SONNET = "claude-sonnet-4-5-20250929";
export const OPUS = "claude-opus-4-6";
export const HAIKU = "claude-haiku-4-5-20251001";
export const SONNET_4 = "claude-sonnet-4-20250514";
