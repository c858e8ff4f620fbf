/**
 * Whether a script colours what it prints: only on a terminal, and never when NO_COLOR is set to
 * anything but the empty string (https://no-color.org), so that piped output and CI logs hold no escape
 * codes.
 */
export function useColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

/** `text` in bold when `color`, as is otherwise. */
export function bold(text: string, color: boolean): string {
  return color ? `\x1b[1m${text}\x1b[0m` : text;
}
