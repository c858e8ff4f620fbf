/**
 * A failure a resource kind raises on purpose: a step it refuses (an import the platform cannot serve, a
 * user whose role the platform does not read back), an id of the wrong form, an answer it will not record.
 * Its message says why and what to do instead, so it is shown alone, without stack frames
 * (provider/expectedFailures.ts).
 */
export class CodeSecResourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
