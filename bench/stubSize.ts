/**
 * Size of the provider text the engine stores with every resource (`__provider`); the target is at most
 * 2048 bytes. Prints one line per resource kind.
 */
import { RESOURCE_KINDS, serializedStub } from "../tests/support/serializeStub";

const LIMIT = 2048;

async function main(): Promise<void> {
  for (const kind of RESOURCE_KINDS) {
    const bytes = Buffer.byteLength(await serializedStub(kind), "utf8");
    console.log(
      `stub ${kind.padEnd(24)} ${String(bytes).padStart(5)} bytes  (${LIMIT - bytes} under the ${LIMIT}-byte target)`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
