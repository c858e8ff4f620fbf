/**
 * provider/clients.ts: the credentials' own user is read once per client and kept across role writes of
 * other users; a write of the caller's own role, or of any role while the caller is not known yet, makes
 * the next read ask again. The client is a stand-in that counts reads and answers when the test says.
 */
import { expect } from "chai";
import { currentUserOf, forgetCurrentUserAfterRoleWrite } from "../../provider/clients";
import type { CodeSecClient } from "../../client";
import type { CurrentUser } from "../../api/schemas/users";

const CALLER = "501";
const OTHER = "502";

/** A client whose getCurrentUser reads are counted and answered by `answer()`. */
function countingClient() {
  const pending: Array<(user: CurrentUser) => void> = [];
  const client = {
    reads: 0,
    getCurrentUser(): Promise<CurrentUser> {
      client.reads++;
      return new Promise((resolve) => pending.push(resolve));
    },
  };
  const answer = () => {
    for (const resolve of pending.splice(0))
      resolve({ id: CALLER, orgRole: "ORG_ROLE_ADMIN" } as CurrentUser);
  };
  return { client, asClient: client as unknown as CodeSecClient, answer };
}

describe("the credentials' own user across role writes", () => {
  it("a write of another user's role keeps the answer: no second read", async () => {
    const { client, asClient, answer } = countingClient();
    const first = currentUserOf(asClient);
    answer();
    await first;
    forgetCurrentUserAfterRoleWrite(asClient, OTHER);
    expect((await currentUserOf(asClient)).id).to.equal(CALLER);
    expect(client.reads).to.equal(1);
  });

  it("a write of the caller's own role: the next read asks again", async () => {
    const { client, asClient, answer } = countingClient();
    const first = currentUserOf(asClient);
    answer();
    await first;
    forgetCurrentUserAfterRoleWrite(asClient, CALLER);
    const second = currentUserOf(asClient);
    answer();
    await second;
    expect(client.reads).to.equal(2);
  });

  it("a write while the read is still in flight (the caller not known yet): forgotten, whoever was written", async () => {
    const { client, asClient, answer } = countingClient();
    const inFlight = currentUserOf(asClient);
    forgetCurrentUserAfterRoleWrite(asClient, OTHER);
    answer();
    await inFlight;
    const next = currentUserOf(asClient);
    answer();
    await next;
    expect(client.reads).to.equal(2);
  });

  it("a write before any read: nothing to forget, the first read is the only one", async () => {
    const { client, asClient, answer } = countingClient();
    forgetCurrentUserAfterRoleWrite(asClient, OTHER);
    const read = currentUserOf(asClient);
    answer();
    await read;
    expect(client.reads).to.equal(1);
  });
});
