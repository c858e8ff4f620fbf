/**
 * A resource step that cannot go on, raised on purpose with a message that says why and what to do (an
 * SCM app that is not connected, an id that is not of the kind's form, an import the platform cannot
 * serve, a role the package does not know). Like the client's errors, it is shown as its message alone
 * (provider/expectedFailures.ts), never as a bug's stack.
 */
import { shownMessage } from "../../api/messageText";

export class CodeSecResourceError extends Error {
  /**
   * `cause`: the client's error this one explains, when there is one (its deadline, say). The message
   * echoes ids and values from outside (an import's id, a state, the platform): any control character
   * they bring is shown escaped (api/messageText.ts), whichever message echoes them.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(shownMessage(message), options);
    this.name = new.target.name;
  }
}
