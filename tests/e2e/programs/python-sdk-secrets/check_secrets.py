"""Whether the Python SDK (sdk/python, pulumi_codesec) marks the schema's secret inputs secret itself: a
program passes an explicit Provider's token and an ScmApp's code as plain strings, under Pulumi's mocks,
which see each registration as the engine receives it (a secret arrives wrapped in the secret signature).
Prints, as JSON, whether each arrived secret. The plugin marks them secret too, so the state alone cannot
tell whether the SDK did (tests/e2e/nativeLanguages.test.ts)."""

import json

import pulumi

SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270"
registered = {}


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        registered[args.typ] = args.inputs
        return (f"{args.name}-id", {})

    def call(self, args):
        return {}


pulumi.runtime.set_mocks(Mocks(), preview=False)

import pulumi_codesec as codesec  # noqa: E402 (after the mocks, as Pulumi's testing guide does)


def arrived_secret(typ, name):
    value = registered.get(typ, {}).get(name)
    return isinstance(value, dict) and value.get(pulumi.runtime.rpc._special_sig_key) == SECRET_SIGNATURE


@pulumi.runtime.test
def check():
    provider = codesec.Provider("plain", base_url="http://127.0.0.1:9", token="plain-token")
    app = codesec.ScmApp(
        "app",
        deployment_id="1001",
        request_id="apprq-1001-a",
        code="plain-code",
        opts=pulumi.ResourceOptions(provider=provider),
    )

    def report(_):
        print(
            json.dumps(
                {
                    "providerToken": arrived_secret("pulumi:providers:codesec", "token"),
                    "scmAppCode": arrived_secret("codesec:index:ScmApp", "code"),
                }
            )
        )

    return pulumi.Output.all(provider.urn, app.urn).apply(report)


check()
