/**
 * Reports held under a size limit: GitHub refuses a comment over 65,536 characters, and a plan of
 * thousands of steps writes far more. A report is a list of sections, each a head, rows and a foot; the
 * rows that do not fit are left out, most important sections kept first, and a visible note after each
 * section cut says how many of its rows were left out.
 */

import { withoutWorkflowCommands } from "./workflowCommands";

/** The most characters GitHub takes in a comment's body. */
export const COMMENT_LIMIT = 65_536;

export interface Section {
  /** What one row is, plural, for the note ("access changes", "lines of the raw diff"). */
  readonly rowsAre?: string;
  readonly head: readonly string[];
  readonly rows?: readonly string[];
  readonly foot?: readonly string[];
  /** Lower keeps its rows first; sections without rows are always kept whole. */
  readonly priority?: number;
}

// Room kept for each note, and for the final newline.
const NOTE_ROOM = 200;

const sizeOf = (lines: readonly string[]) => lines.reduce((total, line) => total + line.length + 1, 0);

function note(left: number, total: number, rowsAre: string): string {
  const all =
    left === total
      ? `All ${total.toLocaleString("en-US")}`
      : `${left.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}`;
  return `_✂️ ${all} ${rowsAre} left out: a comment holds at most ${COMMENT_LIMIT.toLocaleString("en-US")} characters._`;
}

/**
 * The sections as Markdown (lines joined, one final newline) of at most `limit` characters, workflow
 * commands broken (./workflowCommands.ts) before they are measured.
 */
export function fittedMarkdown(given: readonly Section[], limit: number = COMMENT_LIMIT): string {
  const inert = (lines: readonly string[] | undefined) => lines?.map(withoutWorkflowCommands);
  const sections: Section[] = given.map((section) => ({
    ...section,
    head: inert(section.head)!,
    ...(section.rows ? { rows: inert(section.rows) } : {}),
    ...(section.foot ? { foot: inert(section.foot) } : {}),
  }));
  const whole = sections.flatMap((section) => [
    ...section.head,
    ...(section.rows ?? []),
    ...(section.foot ?? []),
  ]);
  if (sizeOf(whole) <= limit) return `${whole.join("\n").trimEnd()}\n`;
  const fixed = sections.filter((section) => (section.rows ?? []).length === 0);
  let budget =
    limit - sizeOf(fixed.flatMap((section) => [...section.head, ...(section.foot ?? [])])) - NOTE_ROOM;
  const kept = new Map<Section, number>();
  const byPriority = sections
    .filter((section) => (section.rows ?? []).length > 0)
    .sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0));
  for (const section of byPriority) {
    budget -= NOTE_ROOM;
    const frame = sizeOf(section.head) + sizeOf(section.foot ?? []);
    let count = 0;
    if (frame <= budget) {
      let room = budget - frame;
      for (const row of section.rows!) {
        if (row.length + 1 > room) break;
        room -= row.length + 1;
        count++;
      }
      if (count > 0) budget = room;
    }
    kept.set(section, count);
  }
  const lines = sections.flatMap((section) => {
    const rows = section.rows ?? [];
    if (rows.length === 0) return [...section.head, ...(section.foot ?? [])];
    const count = kept.get(section) ?? 0;
    const cut =
      count < rows.length ? [note(rows.length - count, rows.length, section.rowsAre ?? "rows"), ""] : [];
    if (count === 0) return cut;
    return [...section.head, ...rows.slice(0, count), ...(section.foot ?? []), ...cut];
  });
  return `${lines.join("\n").trimEnd()}\n`;
}
