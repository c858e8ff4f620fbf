/**
 * Pulumi's Node.js SDK records a stack trace with every promise it makes through `debuggablePromise`
 * (about forty per resource: four per property, the URN's and the id's, the registration's), and reads
 * it at once, which formats it through the source-map support that `pulumi` programs run with. The SDK
 * prints those traces only when `PULUMI_DEBUG_PROMISE_LEAKS` is set, so the classes' constructors skip
 * their formatting: in a 1,000-resource program that formatting is about a third of the program's CPU
 * (docs/large-stacks.md).
 *
 * Only those traces are skipped, recognized by their first frame (`debuggablePromise`): the trace the SDK
 * takes for the resource's source position, an error's trace, and any other trace read meanwhile are
 * formatted as before, and a trace read after the constructor (an error a failed registration reports) is
 * formatted by the formatter then in place, since V8 formats a trace when it is first read. With
 * `PULUMI_DEBUG_PROMISE_LEAKS` set, nothing changes.
 */

/** The function of Pulumi's SDK whose traces are skipped. */
export const PROMISE_TRACE_FUNCTION = "debuggablePromise";

type Formatter = (error: Error, frames: NodeJS.CallSite[]) => unknown;

/** Error's formatter slot, typed as what it holds (Node's typings declare a method that is always set). */
const errorClass = Error as { prepareStackTrace?: Formatter };

/**
 * Until the returned function is called, a trace taken by `debuggablePromise` is formatted as its first
 * line only (`Error`); call it in a `finally` right after the SDK's constructor. It restores the formatter
 * it found only if the slot still holds its own: a formatter installed meanwhile belongs to its installer.
 * On Node 24 the slot holds a formatter (Node's own, or the source-map support Pulumi programs install);
 * should it be empty, V8 formats natively, at little cost, and nothing changes.
 */
export function pausePromiseStacks(): () => void {
  const installed = errorClass.prepareStackTrace;
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS || installed === undefined) return () => undefined;
  const paused: Formatter = (error, frames) =>
    frames[0]?.getFunctionName() === PROMISE_TRACE_FUNCTION ? String(error) : installed(error, frames);
  errorClass.prepareStackTrace = paused;
  return () => {
    if (errorClass.prepareStackTrace === paused) errorClass.prepareStackTrace = installed;
  };
}
