/**
 * Which provider's configuration is stack config: the native plugin reads it from the provider's URN name.
 * The engine names the default provider exactly (ProviderRequest.DefaultName, pkg/v3 v3.259.0
 * resource/deploy/providers/provider.go); an explicit `codesec.Provider` may be named anything, a name
 * that merely starts with "default" included, and its messages must name its inputs.
 */
import { expect } from "chai";
import { STACK_CONFIG } from "../../provider/connection";
import { configOriginOf } from "../../provider/native/configuration";

const urnOf = (name: string) => `urn:pulumi:dev::proj::pulumi:providers:codesec::${name}`;

describe("native plugin: where a provider's configuration comes from, by its URN name", () => {
  for (const name of [
    "default",
    "default_0_5_0",
    // 0.5.0-alpha.1
    "default_0_5_0_alpha_1",
    // 0.17.7-dev.1555435978+gb7030aa4.dirty (the engine's own test of DefaultName)
    "default_0_17_7_dev_1555435978_gb7030aa4_dirty",
    // a pluginDownloadURL, as tokens.IntoQName makes it: each character outside [A-Za-z0-9_.-] but "/"
    // becomes "_", empty segments are dropped (https://example.com)
    "default_1_2_3_https_/example.com",
    "default_0_18_1_pulumi.com/pkg",
    "default_0_17_7_dev_1555435978_gb7030aa4_dirty_company.com/artifact-storage/pkg",
    "default_company.com",
  ]) {
    it(`the engine's default provider ${JSON.stringify(name)}: stack config`, () => {
      expect(configOriginOf(urnOf(name))).to.equal(STACK_CONFIG);
    });
  }

  for (const name of [
    "defaultOrg",
    "default-eu",
    "defaults",
    "default.eu",
    "default_my org",
    "org2",
    "my-default",
    // `/` only between non-empty parts, as the engine's QName keeps it (docs/native-provider.md says so)
    "default_/eu",
    "default_eu/",
    "default_eu//west",
    "default_/",
  ]) {
    it(`an explicit Provider named ${JSON.stringify(name)}: its inputs, named after it`, () => {
      const origin = configOriginOf(urnOf(name));
      expect(origin.providerName).to.equal(name);
      expect(origin.label).to.equal(`provider ${JSON.stringify(name)} (codesec.Provider resource inputs)`);
      expect(origin.where("codesec:token")).to.equal(`the token input of provider ${JSON.stringify(name)}`);
    });
  }

  it("an explicit Provider's name holding `::` is read whole", () => {
    expect(configOriginOf(urnOf("org::eu")).providerName).to.equal("org::eu");
  });

  it("an engine that sends no URN: stack config", () => {
    expect(configOriginOf(undefined)).to.equal(STACK_CONFIG);
    expect(configOriginOf("")).to.equal(STACK_CONFIG);
  });
});
