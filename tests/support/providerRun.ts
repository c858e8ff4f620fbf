/**
 * Mocha root hooks: each test is one engine run of the dynamic provider. A provider process serves one
 * engine operation, and what it remembers for that run (the users the program declares, see
 * provider/resources/declaredRoles.ts) must not leak from one test into the next, all of which
 * share this process.
 */
import { forgetDeclaredRoles } from "../../provider/resources/declaredRoles";

export const mochaHooks = {
  beforeEach(): void {
    forgetDeclaredRoles();
  },
};
