/**
 * One pull-request comment, kept up to date: the summary is posted once, then edited on each push, found
 * again by a hidden marker (an HTML comment naming the organization, project and stack, as tfcmt and Atlantis do) among the comments
 * the workflow's own account wrote. GitHub's REST API (list, create, update issue comments), with the
 * workflow's token, sent only to the configured API address.
 */

import { visibleText } from "./markdownText";
import { withoutWorkflowCommands } from "./workflowCommands";

export interface CommentTarget {
  /** The REST API's address (`GITHUB_API_URL`, default https://api.github.com). */
  readonly apiUrl: string;
  /** `owner/name`. */
  readonly repository: string;
  readonly pullRequest: number;
  readonly token: string;
  /** Whose comments may be edited (default `github-actions[bot]`, the account of `GITHUB_TOKEN`). */
  readonly author: string;
}

/** A request to GitHub that failed: which operation, its status, and what GitHub said. */
export class CommentError extends Error {
  override name = "CommentError";
}

const TIMEOUT_MS = 30_000;

/** The hidden first line of the summary's comment, one per stack (`organization/project/stack`). */
export function commentMarker(stack: string): string {
  return `<!-- codesec-review stack=${stack} -->`;
}

interface IssueComment {
  readonly id: number;
  readonly body?: string;
  readonly html_url?: string;
  readonly user?: { readonly login?: string };
}

const WHAT_FAILED_MEANS: Record<number, string> = {
  401: "the token is missing, expired or revoked",
  403: "the token may not write to pull requests: give the job `permissions: pull-requests: write`",
  404: "no such repository or pull request for this token (check GITHUB_REPOSITORY and the pull request's number)",
  422: "GitHub refused the comment's body",
};

/**
 * What an error answer says, for the command's error: the token redacted before the text is cut (so no
 * piece of it is left), its hidden characters and line breaks written out, no workflow command.
 */
function shownAnswer(text: string, token: string): string {
  return withoutWorkflowCommands(visibleText(text.replaceAll(token, "[token]"), 200));
}

async function call(target: CommentTarget, what: string, url: URL, method: string, body?: unknown) {
  // The token goes to the configured API only, whatever a response's links say.
  if (url.origin !== new URL(target.apiUrl).origin) {
    throw new CommentError(`${what}: GitHub pointed to ${url.origin}, not the API at ${target.apiUrl}`);
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${target.token}`,
        accept: "application/vnd.github+json",
        "x-github-api-version": "2022-11-28",
        "user-agent": "codesec-review",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      // A redirect would take the token to wherever it points.
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const cause =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
    throw new CommentError(`${what}: no answer from ${url.origin} (${cause})`);
  }
  if (response.status >= 300 && response.status < 400) {
    throw new CommentError(
      `${what}: HTTP ${response.status}, a redirect, not followed with the token: check GITHUB_API_URL`,
    );
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    if (response.ok) {
      throw new CommentError(
        `${what}: HTTP ${response.status}, but the answer is not JSON: check that GITHUB_API_URL is GitHub's REST API`,
      );
    }
  }
  if (!response.ok) {
    const message = (json as { message?: unknown } | undefined)?.message;
    const said = shownAnswer(
      typeof message === "string" ? message : json === undefined ? text : "",
      target.token,
    );
    const advice = WHAT_FAILED_MEANS[response.status];
    throw new CommentError(
      `${what}: HTTP ${response.status}${said ? ` (GitHub: ${said})` : ""}${advice ? `: ${advice}` : ""}`,
    );
  }
  return { json, link: response.headers.get("link") };
}

function nextPage(link: string | null): URL | undefined {
  const next = link?.split(",").find((part) => /rel="next"/.test(part));
  const match = next ? /<([^>]+)>/.exec(next) : null;
  return match ? new URL(match[1]) : undefined;
}

/** The comment of this marker that the workflow's account wrote, if any (the last one). */
async function findComment(target: CommentTarget, marker: string): Promise<IssueComment | undefined> {
  let url: URL | undefined = new URL(
    `repos/${target.repository}/issues/${target.pullRequest}/comments?per_page=100`,
    `${target.apiUrl.replace(/\/+$/, "")}/`,
  );
  let found: IssueComment | undefined;
  for (let page = 0; url !== undefined && page < 100; page++) {
    const { json, link } = await call(target, "list the pull request's comments", url, "GET");
    if (!Array.isArray(json))
      throw new CommentError("list the pull request's comments: GitHub's answer is no list");
    for (const comment of json as IssueComment[]) {
      if (comment.user?.login === target.author && comment.body?.startsWith(marker)) found = comment;
    }
    url = nextPage(link);
  }
  return found;
}

/** Posts `body` (which starts with `marker`), or edits the comment already posted under that marker. */
export async function upsertComment(
  target: CommentTarget,
  marker: string,
  body: string,
): Promise<{ readonly action: "created" | "updated"; readonly url: string }> {
  const base = `${target.apiUrl.replace(/\/+$/, "")}/`;
  const existing = await findComment(target, marker);
  if (existing !== undefined) {
    const { json } = await call(
      target,
      "update the pull request's comment",
      new URL(`repos/${target.repository}/issues/comments/${existing.id}`, base),
      "PATCH",
      { body },
    );
    return {
      action: "updated",
      url: String((json as IssueComment | undefined)?.html_url ?? existing.html_url ?? ""),
    };
  }
  const { json } = await call(
    target,
    "create the pull request's comment",
    new URL(`repos/${target.repository}/issues/${target.pullRequest}/comments`, base),
    "POST",
    { body },
  );
  return { action: "created", url: String((json as IssueComment | undefined)?.html_url ?? "") };
}
