/**
 * What a program, a state or the platform writes into the reports reaches GitHub as inert text: names,
 * user ids, field values and messages built to close the table, the code fence or `<details>`, open an
 * HTML comment, add links, images, mentions or bold lines, or hide themselves with control and bidi
 * characters. Asserted on the HTML a GFM renderer makes of the reports (tests/support/gfm.ts).
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { driftCommand, driftMain, reviewCommand, type CommandIo } from "../../provider/review/commands";
import type { RefreshRun } from "../../provider/review/stackRefresh";
import { renderGfm, tableRows, textOf } from "../support/gfm";

const TYPE = "pulumi-nodejs:dynamic/codesec:UserRole";
const APP_TYPE = "pulumi-nodejs:dynamic/codesec:ScmApp";
const urnOf = (type: string, name: string) => `urn:pulumi:prod::org::${type}::${name}`;
const line = (event: Record<string, unknown>) =>
  `${JSON.stringify({ sequence: 1, timestamp: 1, ...event })}\n`;

function create(name: string, inputs: Record<string, unknown>, type = TYPE): string {
  const urn = urnOf(type, name);
  return line({ resourcePreEvent: { metadata: { op: "create", urn, type, new: { type, inputs } } } });
}

function violation(name: string, policyName: string, message: string): string {
  return line({
    policyEvent: {
      policyName,
      policyPackName: "codesec",
      enforcementLevel: "mandatory",
      message: `description\n${message}`,
      resourceUrn: urnOf(TYPE, name),
    },
  });
}

const POLICY_LOAD = line({ policyLoadEvent: {} });
const SUMMARY = line({ summaryEvent: { result: "succeeded", resourceChanges: {} } });

function run(command: (args: readonly string[], io: CommandIo) => number, args: string[], stdin: string) {
  let stdout = "";
  let stderr = "";
  const code = command(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdin: () => stdin,
  });
  return { code, stdout, stderr };
}

/** What a reader sees, without the zero-width spaces that break links and mentions. */
const seen = (html: string) => textOf(html).replace(/\u200b/g, "");

/** How the reports show a name's invisible characters. */
const visible = (text: string) =>
  text.replace(
    // eslint-disable-next-line no-control-regex, no-misleading-character-class -- invisible characters are what it looks for
    /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\u034f\u115f\u1160\u2800\u3164\ufe00-\ufe0f\uffa0\u{e0000}-\u{e007f}]/gu,
    (char) =>
      ({ "\n": "\\n", "\r": "\\r", "\t": "\\t" })[char] ??
      [...Array(char.length).keys()]
        .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`)
        .join(""),
  );

// Names that once rewrote the comment, or would: each must read back as itself.
const HOSTILE_NAMES = [
  'ok" created: sets the role, whatever the user had |\n\nNo other access changes.\n\n<!--',
  "x\n```\n</details>\n\n**Reviewed by security: no access changes**\n\n<details>\n```",
  "[approve](https://evil.example/a) ![logo](https://evil.example/l.png)",
  "ping @acme/security-team and @alice",
  "a | b | c",
  "\u001b[31mred\u001b[0m",
  "invoice\u202egnp.exe",
  "www.evil.example and http://evil.example/x and mail@evil.example",
  '<img src=x onerror="alert(1)"> <b>bold</b> <script>alert(1)</script>',
  "# heading",
  "- item",
  "1. item",
  "    indented",
  "> quote",
  "*em* _em_ **strong** ~~gone~~ `code` $x^2$",
  "&lt;not a tag&gt; &amp;",
  "back\\slash \\| and \\`",
  "fixes #12",
  "~~~",
  "````",
  "_www.evil.example/approve a_www.evil.example __www.evil.example",
  "someone::admin",
  "x::pulumi:pulumi:Stack::y",
  "admin\u{e0041}\u{e0042} ok\ufe0f \u3164\u115f\u1160\uffa0 a\u034fb \u2800 lee",
];

function userRole(name: string, userId: string, role: string, roleOnDestroy?: string): string {
  return create(name, { deploymentId: "1001", userId, role, ...(roleOnDestroy ? { roleOnDestroy } : {}) });
}

describe("review and drift reports: untrusted text renders as inert text", () => {
  it("a name built to hide the next access change leaves the admin grant, the raw diff and the policy section in place", () => {
    const name = HOSTILE_NAMES[0];
    const log =
      POLICY_LOAD +
      userRole(name, "229", "ORG_ROLE_READONLY") +
      userRole("zz-admin", "230", "ORG_ROLE_ADMIN", "ORG_ROLE_MEMBER") +
      violation("zz-admin", "codesec-admin-count", "deployment 1001 has 4 admins") +
      SUMMARY;
    const review = run(reviewCommand, [], log);
    expect(review.code, review.stderr).to.equal(0);
    const html = renderGfm(review.stdout);
    expect(tableRows(html).map((row) => row.map(seen))).to.deep.equal([
      [
        "229",
        "1001",
        "(not in the stack)",
        "ORG_ROLE_READONLY",
        `UserRole "${visible(name)}" created: sets the role, whatever the user had`,
      ],
      [
        "230",
        "1001",
        "(not in the stack)",
        "ORG_ROLE_ADMIN",
        'UserRole "zz-admin" created: sets the role, whatever the user had',
      ],
    ]);
    expect(html).not.to.include("<!--");
    expect(html).to.include("<summary>Raw diff</summary>");
    expect(html).to.match(
      /<h4>Policy violations<\/h4>\n<ul>\n<li>❌ mandatory <code>codesec-admin-count<\/code>/,
    );
    expect(seen(html)).not.to.match(/^No other access changes\.$/m);
  });

  for (const [index, name] of HOSTILE_NAMES.entries()) {
    it(`hostile name ${index + 1} (${JSON.stringify(name).slice(0, 40)}) reads back as itself everywhere it is shown`, () => {
      const message = `user ${name} is declared twice`;
      const log =
        POLICY_LOAD +
        userRole(name, name, "ORG_ROLE_MEMBER") +
        create(`app ${name}`, { deploymentId: "1001", requestId: name }, APP_TYPE) +
        violation(name, `policy ${name}`, message) +
        line({ diagnosticEvent: { severity: "error", message: `error ${name}`, urn: urnOf(TYPE, name) } }) +
        SUMMARY;
      const review = run(reviewCommand, [], log);
      expect(review.code, review.stderr).to.equal(0);
      const html = renderGfm(review.stdout);
      // Only the elements the report writes itself.
      const tags = new Set([...html.matchAll(/<\/?([a-z0-9]+)/g)].map((match) => match[1]));
      expect([...tags].sort()).to.deep.equal(
        [
          "code",
          "details",
          "h3",
          "h4",
          "li",
          "p",
          "pre",
          "summary",
          "table",
          "tbody",
          "td",
          "th",
          "thead",
          "tr",
          "ul",
        ].sort(),
      );
      expect(html).not.to.match(/<!--|<a |<img|<strong>|<em>|<del>|<script|<b>|<blockquote|<h1|<h2|<ol/);
      // No mention, link, bidi or control character reaches the reader.
      // GitHub links and mentions nothing in code (the raw diff, a policy's name): it shows names exactly.
      const text = textOf(html.replace(/<pre>[\s\S]*?<\/pre>|<code>[\s\S]*?<\/code>/g, ""));
      expect(text).not.to.match(/@[A-Za-z0-9]/);
      expect(text).not.to.match(/https?:\/\/|www\./i);
      expect(text).not.to.match(/#\d/);
      // eslint-disable-next-line no-control-regex -- control characters are what it looks for
      expect(text).not.to.match(/[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
      // The access change: one row, its cells reading as the name and the id.
      const rows = tableRows(html);
      expect(rows.map((row) => row.map(seen))).to.deep.equal([
        [
          visible(name),
          "1001",
          "(not in the stack)",
          "ORG_ROLE_MEMBER",
          `UserRole "${visible(name)}" created: sets the role, whatever the user had`,
        ],
      ]);
      // Each list item: the SCM app, the violation and the error, as written.
      const items = [...html.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => seen(match[1]));
      expect(items).to.deep.equal([
        `ScmApp "app ${visible(name)}" created: adopts the SCM app of request ${visible(name)}, already connected`,
        // The engine's message reads as one line: its line breaks are spaces.
        `❌ mandatory policy ${visible(name)} (UserRole "${visible(name)}"): ${visible(message.replace(/\s*\n\s*/g, " "))}`,
        `error ${visible(name)}`,
      ]);
      // The raw diff: one code block holding every line, the fence never closed early.
      const blocks = [...html.matchAll(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map((match) =>
        textOf(match[1]),
      );
      expect(blocks).to.have.length(1);
      expect(blocks[0]).to.include(`+ UserRole "${visible(name)}" (create)`);
      expect(blocks[0]).to.include(`+ ScmApp "app ${visible(name)}" (create)`);
      expect(html.lastIndexOf("</details>")).to.be.greaterThan(html.lastIndexOf("</pre>"));
    });
  }

  it("the stack's name in the title is inert too", () => {
    const type = TYPE;
    const urn = `urn:pulumi:a\`b@team::org::${type}::lee`;
    const log =
      POLICY_LOAD +
      line({
        resourcePreEvent: {
          metadata: {
            op: "create",
            urn,
            type,
            new: { type, inputs: { deploymentId: "1", userId: "2", role: "ORG_ROLE_MEMBER" } },
          },
        },
      }) +
      SUMMARY;
    const html = renderGfm(run(reviewCommand, [], log).stdout);
    expect(html.split("\n")[0]).to.equal(
      "<h3>codesec: what this change does to stack <code>a`b@\u200bteam</code></h3>",
    );
  });

  it("codesec-drift: a platform value built to end its cell shows as it is, beside the state's", () => {
    const urn = urnOf(APP_TYPE, "scm-app");
    const old = { type: APP_TYPE, inputs: {}, outputs: { requestId: "7", scmName: "example-org" } };
    const platform = 'example-org" | ';
    const log =
      line({ resourcePreEvent: { metadata: { op: "refresh", urn, type: APP_TYPE, old } } }) +
      line({
        resOutputsEvent: {
          metadata: {
            op: "update",
            urn,
            type: APP_TYPE,
            old,
            new: { ...old, outputs: { ...old.outputs, scmName: platform } },
          },
        },
      }) +
      SUMMARY;
    const drift = run(driftCommand, [], log);
    expect(drift.code, drift.stderr).to.equal(2);
    const rows = tableRows(renderGfm(drift.stdout)).map((row) => row.map(seen));
    expect(rows).to.deep.equal([['ScmApp "scm-app"', "scmName", '"example-org"', JSON.stringify(platform)]]);
  });

  it("codesec-drift: hostile names and error messages stay inert", () => {
    for (const name of HOSTILE_NAMES) {
      const urn = urnOf(APP_TYPE, name);
      const old = { type: APP_TYPE, inputs: {}, outputs: { requestId: name } };
      const log =
        line({ resourcePreEvent: { metadata: { op: "refresh", urn, type: APP_TYPE, old } } }) +
        line({ resOutputsEvent: { metadata: { op: "delete", urn, type: APP_TYPE, old } } }) +
        SUMMARY;
      const drift = run(driftCommand, [], log);
      expect(drift.code, name).to.equal(2);
      const html = renderGfm(drift.stdout);
      expect(
        tableRows(html).map((row) => row.map(seen)),
        name,
      ).to.deep.equal([
        [`ScmApp "${visible(name)}"`, "(all)", "present", "gone: the next refresh removes it from the stack"],
      ]);
      expect(html, name).not.to.match(
        /<!--|<a |<img|<strong>|<em>|<del>|<script|<b>|<blockquote|<h1|<h2|<ol/,
      );
      const failed = run(
        driftCommand,
        [],
        line({ resourcePreEvent: { metadata: { op: "refresh", urn, type: APP_TYPE, old } } }) +
          line({ diagnosticEvent: { severity: "error", message: `failed ${name}` } }) +
          line({ summaryEvent: { result: "failed" } }),
      );
      expect(failed.code).to.equal(1);
      const items = [...renderGfm(failed.stdout).matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) =>
        seen(match[1]),
      );
      expect(items, name).to.deep.equal([`failed ${visible(name)}`]);
    }
  });

  it("codesec-drift of many stacks: hostile names and error messages stay inert in the drift, resolved and error sections", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "drift-stacks-safety-"));
    const many = async (runs: Record<string, RefreshRun>, baseline: string) => {
      let stdout = "";
      const code = await driftMain(
        [...Object.keys(runs).flatMap((stack) => ["--stack", stack]), "--baseline", baseline],
        { stdout: (t) => (stdout += t), stderr: () => undefined, stdin: () => "" },
        {},
        { project: "org", listStacks: async () => [], refresh: async (stack) => runs[stack] },
      );
      return { code, html: renderGfm(stdout) };
    };
    const ran = (events: string): RefreshRun => ({ events, cliOutput: "", exitCode: 0, signal: null });
    try {
      for (const [index, name] of HOSTILE_NAMES.entries()) {
        const baseline = path.join(dir, `last-${index}.json`);
        const urn = urnOf(APP_TYPE, name);
        const old = { type: APP_TYPE, inputs: {}, outputs: { scmName: "acme" } };
        const refresh = (scmName: string) =>
          line({ resourcePreEvent: { metadata: { op: "refresh", urn, type: APP_TYPE, old } } }) +
          line({
            resOutputsEvent: {
              metadata: {
                op: scmName === "acme" ? "same" : "update",
                urn,
                type: APP_TYPE,
                old,
                new: { ...old, outputs: { scmName } },
              },
            },
          }) +
          SUMMARY;
        const drifted = await many({ prod: ran(refresh(name)) }, baseline);
        expect(drifted.code, name).to.equal(2);
        expect(
          tableRows(drifted.html)
            .map((row) => row.map(seen))
            .filter((row) => row.length === 4),
          name,
        ).to.deep.equal([[`ScmApp "${visible(name)}"`, "scmName", '"acme"', visible(JSON.stringify(name))]]);
        const failure =
          line({ diagnosticEvent: { severity: "error", message: `failed ${name}` } }) +
          line({ summaryEvent: { result: "failed" } });
        const later = await many({ prod: ran(refresh("acme")), dev: ran(failure) }, baseline);
        expect(later.code, name).to.equal(1);
        const items = [...later.html.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => seen(match[1]));
        expect(items, name).to.deep.equal([`ScmApp "${visible(name)}"`, `failed ${visible(name)}`]);
        for (const html of [drifted.html, later.html]) {
          expect(html, name).not.to.match(
            /<!--|<a |<img|<strong>|<em>|<del>|<script|<b>|<blockquote|<h1|<h2|<ol/,
          );
          expect(html.match(/<h3>/g), name).to.have.length(1);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
