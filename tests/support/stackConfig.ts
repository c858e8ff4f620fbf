/** Hands the dynamic providers stack config the way the engine's configure call does. */
import { run } from "../../provider/dynamic";

export async function configureStack(values: Record<string, unknown>): Promise<void> {
  await run("UserRole", {
    config: { get: (key: string) => values[key], require: (key: string) => values[key] },
  } as never);
}
