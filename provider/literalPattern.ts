/** Text as a regular expression (source) that matches it literally (Node 22 has no `RegExp.escape`). */
export function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A regular expression (source) that matches `template`'s text with `pattern` in place of every `slot`: for
 * a pattern built from the function that writes the text, so that the two cannot drift apart.
 */
export function patternAround(template: string, slot: string, pattern: string): string {
  return template.split(slot).map(literalPattern).join(pattern);
}
