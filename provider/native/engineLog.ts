/**
 * Messages to the user through the engine's Log service (its address is the plugin's first argument, and
 * the Handshake repeats it), attached to the resource they concern, as the engine prints any resource's
 * diagnostics. Without an engine (a plugin run by hand), they go to stderr, which the engine would print
 * too.
 */
import * as grpc from "@grpc/grpc-js";
import { EngineClient, LogRequest, LogSeverity } from "./protocol";

export type Severity = "info" | "warning";

export class EngineLog {
  private address: string | undefined;
  private client: EngineClient | undefined;
  /** Set by close: what is still said goes to stderr. */
  private closed = false;

  constructor(address?: string) {
    this.address = address;
  }

  /** The engine to log to, from the plugin's argument, Handshake or Attach. */
  setAddress(address: string): void {
    if (address === "" || address === this.address) return;
    this.client?.close();
    this.client = undefined;
    this.address = address;
  }

  /** Sends a message about the resource `urn` (empty: the stack); resolves once the engine has it. */
  log(severity: Severity, message: string, urn: string): Promise<void> {
    if (this.address === undefined || this.closed) {
      process.stderr.write(`${severity}: ${message}\n`);
      return Promise.resolve();
    }
    this.client ??= new EngineClient(this.address, grpc.credentials.createInsecure());
    const request = new LogRequest();
    request.setSeverity(severity === "warning" ? LogSeverity.WARNING : LogSeverity.INFO);
    request.setMessage(message);
    request.setUrn(urn);
    return new Promise((resolve) => {
      this.client!.log(request, (error) => {
        // A message the engine could not take is not lost: the engine prints the plugin's stderr too.
        if (error) process.stderr.write(`${severity}: ${message}\n`);
        resolve();
      });
    });
  }

  /** Ends the client for good (the plugin is stopping): no new one is made after it. */
  close(): void {
    this.closed = true;
    this.client?.close();
    this.client = undefined;
  }
}
