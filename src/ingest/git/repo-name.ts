import { basename } from "node:path";
import { gitText } from "./exec";
import type { GitRepository } from "./repo";

/** `owner/name` from the origin remote's URL (ssh or https), else the repository folder's name. */
export async function repositoryName(repo: GitRepository, path: string): Promise<string> {
  const url = (await gitText(repo.gitDir, ["config", "--get", "remote.origin.url"]))?.trim();
  const match = url?.match(/[:/]([^/:]+\/[^/]+?)(?:\.git)?\/?$/);
  if (match) return match[1];
  return basename(repo.workTree ?? path).replace(/\.git$/, "");
}
