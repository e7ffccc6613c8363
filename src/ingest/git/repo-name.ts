import { basename, dirname, resolve } from "node:path";
import { gitText } from "./exec";
import type { GitRepository } from "./repo";

/**
 * `owner/name` from the origin remote's URL (ssh or https), else the
 * repository folder's name: `proj` for `proj/`, `proj/.git` and `proj.git`.
 * Never empty.
 */
export async function repositoryName(repo: GitRepository, path: string): Promise<string> {
  const url = (await gitText(repo.gitDir, ["config", "--get", "remote.origin.url"]))?.trim();
  const match = url?.match(/[:/]([^/:]+\/[^/]+?)(?:\.git)?\/?$/);
  if (match) return match[1];
  let folder = resolve(repo.workTree ?? path);
  if (basename(folder) === ".git") folder = dirname(folder);
  return basename(folder).replace(/\.git$/, "") || "repository";
}
