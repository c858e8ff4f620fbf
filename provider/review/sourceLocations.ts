/**
 * Where in the repository a resource was declared, for results that point at code (SARIF, workflow
 * annotations). The engine records each resource's source position as `project:///index.ts#12,5`
 * (relative to the project's folder) or `file:///abs/index.ts#12,5`: read from the event log's states when
 * they carry it, else from the stack's state (`pulumi stack export`); without one, the project file.
 */
import * as path from "node:path";
import { EngineOutputError, type EngineOutput } from "./engineOutput";

/** A place in a file of the repository: a path relative to its root, with `/`, and a 1-based line. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column?: number;
}

export interface LocationOptions {
  /** The project's folder (holding Pulumi.yaml), relative to the repository's root. Default: ".". */
  readonly projectDir?: string;
  /** The repository's root, to make `file://` positions relative. Default: the working directory. */
  readonly repositoryRoot?: string;
  /** Source positions by URN (from {@link sourcePositionsOfState}). */
  readonly positions?: ReadonlyMap<string, string>;
}

const POSITION = /^(project|file):\/\/([^#]*)#(\d+)(?:,(\d+))?$/;

function joined(...parts: string[]): string {
  return path.posix.normalize(parts.join("/")).replace(/^\.\//, "");
}

/** A source position as a repository location; undefined when it is of another form or outside it. */
export function locationOfPosition(
  position: string,
  options: LocationOptions = {},
): SourceLocation | undefined {
  const match = POSITION.exec(position);
  if (!match) return undefined;
  const [, scheme, uriPath, line, column] = match;
  let file: string;
  try {
    file = decodeURIComponent(uriPath);
  } catch {
    return undefined;
  }
  if (scheme === "project") {
    file = joined(options.projectDir ?? ".", file.replace(/^\/+/, ""));
  } else {
    const relative = path
      .relative(options.repositoryRoot ?? process.cwd(), file)
      .split(path.sep)
      .join("/");
    if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
    file = relative;
  }
  if (file.startsWith("../") || file === "..") return undefined;
  return { file, line: Number(line), ...(column !== undefined ? { column: Number(column) } : {}) };
}

/** The source positions a stack's state (`pulumi stack export`) records, by URN. */
export function sourcePositionsOfState(text: string): Map<string, string> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new EngineOutputError("the stack's state is not JSON: give what `pulumi stack export` printed");
  }
  const deployment = (document as { deployment?: { resources?: unknown } } | null)?.deployment;
  if (!deployment || !Array.isArray(deployment.resources)) {
    throw new EngineOutputError(
      "the stack's state holds no deployment: give what `pulumi stack export` printed",
    );
  }
  const positions = new Map<string, string>();
  for (const resource of deployment.resources as unknown[]) {
    const { urn, sourcePosition } = (resource ?? {}) as { urn?: unknown; sourcePosition?: unknown };
    if (typeof urn === "string" && typeof sourcePosition === "string") positions.set(urn, sourcePosition);
  }
  return positions;
}

/**
 * Where the resource of `urn` was declared: its source position in the run's states, else in the
 * stack's state, else the project file (a stack-wide result, or a position not recorded).
 */
export function locationOf(urn: string, output: EngineOutput, options: LocationOptions = {}): SourceLocation {
  const step = [...output.steps, ...output.refreshed].find(
    (s) => s.urn === urn && (s.new ?? s.old)?.sourcePosition,
  );
  const position = step?.new?.sourcePosition ?? step?.old?.sourcePosition ?? options.positions?.get(urn);
  const located = position !== undefined ? locationOfPosition(position, options) : undefined;
  return located ?? { file: joined(options.projectDir ?? ".", "Pulumi.yaml"), line: 1 };
}
