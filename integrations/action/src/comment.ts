// The sticky comment (comment: sticky): one comment on the issue or pull request that triggered the run,
// found again by a hidden marker, created at the start and edited as the run goes on, ending with the
// final answer and the cost. A comment that cannot be posted is a warning: the run itself goes on.
import * as github from "@actions/github";

export const MARKER = "<!-- i-action:sticky -->";

type Octokit = ReturnType<typeof github.getOctokit>;

export interface Target {
  owner: string;
  repo: string;
  issue: number;
}

/** The issue or PR the event is about, if any. */
export function commentTarget(): Target | undefined {
  const ctx = github.context;
  const p = ctx.payload as { issue?: { number?: number }; pull_request?: { number?: number } };
  const issue = p.issue?.number ?? p.pull_request?.number;
  if (typeof issue !== "number") return undefined;
  return { owner: ctx.repo.owner, repo: ctx.repo.repo, issue };
}

export class StickyComment {
  private id: number | undefined;
  private disabled = false;
  private last = "";
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly octokit: Octokit,
    private readonly target: Target,
    private readonly warn: (message: string) => void,
  ) {}

  /** Post `body` (creating the comment, or editing it); later calls wait for earlier ones. */
  update(body: string): Promise<void> {
    this.pending = this.pending.then(() => this.send(body));
    return this.pending;
  }

  private async send(body: string): Promise<void> {
    if (this.disabled || body === this.last) return;
    const text = `${MARKER}\n${body}`;
    const { owner, repo, issue } = this.target;
    try {
      if (this.id === undefined) this.id = await this.find();
      if (this.id === undefined) {
        const r = await this.octokit.rest.issues.createComment({
          owner,
          repo,
          issue_number: issue,
          body: text,
        });
        this.id = r.data.id;
      } else await this.octokit.rest.issues.updateComment({ owner, repo, comment_id: this.id, body: text });
      this.last = body;
    } catch (err) {
      // One warning, then no more attempts: a token without write access fails every time.
      this.disabled = true;
      const status = (err as { status?: number }).status;
      this.warn(
        `comment: cannot post the comment on #${issue}${status ? ` (HTTP ${status})` : ""}: ${(err as Error).message}; the run goes on without it (the token needs issues: write or pull-requests: write)`,
      );
    }
  }

  /** The sticky comment an earlier run left, so it is edited rather than a new one added. */
  private async find(): Promise<number | undefined> {
    const { owner, repo, issue } = this.target;
    const r = await this.octokit.rest.issues.listComments({
      owner,
      repo,
      issue_number: issue,
      per_page: 100,
    });
    return r.data.find((c) => typeof c.body === "string" && c.body.startsWith(MARKER))?.id;
  }
}

export function stickyComment(token: string, warn: (m: string) => void): StickyComment | undefined {
  const target = commentTarget();
  if (!target) {
    warn("comment: sticky, but this event has no issue or pull request to comment on; no comment is posted");
    return undefined;
  }
  return new StickyComment(github.getOctokit(token), target, warn);
}
