/**
 * Waits for something another party does asynchronously (a server noticing a closed connection), checking
 * every few milliseconds. The limit is generous: it only bounds a failing test, it never measures anything.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false,
  limitMs = 5000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
