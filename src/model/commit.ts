import { z } from "zod";

export const commitSchema = z.object({
  sha: z.string(),
  parents: z.array(z.string()),
  author_time: z.number(),
  committer_time: z.number(),
  subject: z.string(),
  /** Values of `Entire-Checkpoint` trailers, as git's trailer parser sees them. */
  checkpoint_ids: z.array(z.string()),
  /** `git patch-id --stable`; copies of one commit (rebase, cherry-pick) share it. */
  patch_id: z.string().nullable(),
});
export type Commit = z.infer<typeof commitSchema>;
