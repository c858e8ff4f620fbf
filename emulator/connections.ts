/**
 * Connections the emulator itself closes (an injected fault, a time limit), so that the request log does
 * not blame the client for them (`abandoned` means the client went away).
 */
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

const closedByEmulatorSockets = new WeakSet<Socket>();

/** Destroys a connection on the emulator's own account. */
export function destroyByEmulator(socket: Socket): void {
  closedByEmulatorSockets.add(socket);
  socket.destroy();
}

/** Whether the emulator (rather than the client) closed the connection of this request. */
export function closedByEmulator(raw: IncomingMessage): boolean {
  return closedByEmulatorSockets.has(raw.socket);
}
