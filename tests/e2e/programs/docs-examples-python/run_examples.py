"""Runs the generated Python docs examples, one after the other in this one process, under Pulumi's mocks.

    python run_examples.py <schema.json> <example __main__.py>...

Each example runs as a program's entry (`__main__`), with the stack config in $DOCS_EXAMPLES_CONFIG (a JSON
object of key to value, every value a secret), and everything it registers or calls awaited. The mocks
check each resource's inputs and each function's arguments against the codesec schema, nested objects
included: a name the schema does not have, or a required one missing, fails the example, as it would fail
against the real provider. (The Python SDK itself raises a TypeError for a wrong top-level keyword, but
passes a wrong key of a nested dict through as it is.) A function call answers with a value made from the
schema's result type, so the examples' code that reads the result runs too.

Prints one line per example (`ok <file>` or `FAIL <file>: <error>`), and exits 1 when any failed.
"""

import json
import os
import runpy
import sys
import traceback

import pulumi
from pulumi.runtime import mocks
from pulumi.runtime.config import set_all_config

PROJECT = "docs-examples"


def load_schema(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


class SchemaMocks(pulumi.runtime.Mocks):
    """Resources and calls checked against the schema; results made from it."""

    def __init__(self, schema):
        self.schema = schema
        self.problems = []

    def resolve(self, spec):
        ref = spec.get("$ref")
        if ref is None:
            return spec
        if ref.startswith("pulumi.json#/"):
            return {"type": "any"}
        return self.schema["types"][ref[len("#/types/") :]]

    def check(self, where, value, spec):
        """Appends to problems every name in `value` that `spec` (an object type) lacks, and each missing required one."""
        spec = self.resolve(spec)
        if spec.get("type") == "array" and isinstance(value, list):
            for index, item in enumerate(value):
                self.check(f"{where}[{index}]", item, spec["items"])
        elif spec.get("type") == "object" and "additionalProperties" in spec and isinstance(value, dict):
            for key, item in value.items():
                self.check(f"{where}.{key}", item, spec["additionalProperties"])
        elif "properties" in spec and isinstance(value, dict):
            properties = spec["properties"]
            for key, item in value.items():
                if key not in properties:
                    self.problems.append(f"{where}: no property {key!r} (the schema has {sorted(properties)})")
                else:
                    self.check(f"{where}.{key}", item, properties[key])
            for key in spec.get("required", []):
                if key not in value:
                    self.problems.append(f"{where}: the required {key!r} is missing")

    def sample(self, spec, depth=0):
        """A value of the schema type `spec`, for a function's result."""
        spec = self.resolve(spec)
        if "enum" in spec:
            return spec["enum"][0]["value"]
        kind = spec.get("type")
        if "properties" in spec:
            return {key: self.sample(item, depth + 1) for key, item in spec["properties"].items()}
        if kind == "array":
            return [self.sample(spec["items"], depth + 1)] if depth < 6 else []
        if kind == "object":
            return {"key": self.sample(spec.get("additionalProperties", {"type": "string"}), depth + 1)}
        return {"string": "example", "integer": 1, "number": 1, "boolean": True}.get(kind, "example")

    def new_resource(self, args):
        if args.typ == "pulumi:providers:codesec":
            spec = {"properties": self.schema["provider"]["inputProperties"], "required": []}
        else:
            resource = self.schema["resources"].get(args.typ)
            if resource is None:
                self.problems.append(f"{args.name}: no resource type {args.typ!r} in the schema")
                return f"{args.name}-id", args.inputs
            spec = {"properties": resource["inputProperties"], "required": resource.get("requiredInputs", [])}
        self.check(f"{args.typ} {args.name!r}", args.inputs, spec)
        return f"{args.name}-id", args.inputs

    def call(self, args):
        function = self.schema["functions"].get(args.token)
        if function is None:
            self.problems.append(f"no function {args.token!r} in the schema")
            return {}, []
        self.check(args.token, args.args, function.get("inputs", {"properties": {}}))
        return self.sample(function["outputs"]), []


def main():
    schema = load_schema(sys.argv[1])
    config = json.loads(os.environ.get("DOCS_EXAMPLES_CONFIG", "{}"))
    failed = 0
    for example in sys.argv[2:]:
        checker = SchemaMocks(schema)
        pulumi.runtime.set_mocks(checker, project=PROJECT, stack="docs", preview=False)
        set_all_config({f"{PROJECT}:{key}": value for key, value in config.items()}, [f"{PROJECT}:{key}" for key in config])

        @pulumi.runtime.test
        def run():
            runpy.run_path(example, run_name="__main__")

        try:
            run()
            if checker.problems:
                raise ValueError("; ".join(checker.problems))
            print(f"ok {example}", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure of an example is reported, then the next runs
            failed += 1
            print(f"FAIL {example}: {type(error).__name__}: {error}", flush=True)
            traceback.print_exc()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
