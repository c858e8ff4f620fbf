package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// The Node.js SDK's resource classes construct Pulumi's resource with the stack traces of the SDK's promises
// left unformatted (pausePromiseStacks in utilities.ts): Pulumi's SDK takes and formats one for each of the
// forty or so promises it makes per resource, and prints them only when PULUMI_DEBUG_PROMISE_LEAKS is set.
// In a 1,000-resource program that formatting is about a third of the program's CPU (docs/large-stacks.md).
// The upstream generator has no option for it, so its output is edited here; a change of its output that
// this edit no longer recognizes fails the generation rather than leaving a class unedited.

// pausePromiseStacksHelper is appended to the SDK's utilities.ts (the same rule as the dynamic classes'
// provider/dynamic/promiseStacks.ts, which is in another package).
const pausePromiseStacksHelper = `
/**
 * @internal
 * Until the returned function is called, a stack trace taken by Pulumi's debuggablePromise (one per
 * promise the SDK makes for a resource, printed only when PULUMI_DEBUG_PROMISE_LEAKS is set) is formatted
 * as its first line only; every other trace is formatted as before, and a trace read later by the
 * formatter then in place. The returned function restores the formatter found only if the slot still
 * holds this one: a formatter installed meanwhile belongs to its installer. Nothing changes with
 * PULUMI_DEBUG_PROMISE_LEAKS set, or should the slot be empty (on Node 24 it holds Node's formatter or
 * the source-map support's; V8 otherwise formats natively, at little cost).
 */
export function pausePromiseStacks(): () => void {
    type Formatter = (error: Error, frames: NodeJS.CallSite[]) => unknown;
    const errorClass = Error as { prepareStackTrace?: Formatter };
    const installed = errorClass.prepareStackTrace;
    if (process.env.PULUMI_DEBUG_PROMISE_LEAKS || installed === undefined) {
        return () => undefined;
    }
    const paused: Formatter = (error, frames) =>
        frames[0]?.getFunctionName() === "debuggablePromise" ? String(error) : installed(error, frames);
    errorClass.prepareStackTrace = paused;
    return () => {
        if (errorClass.prepareStackTrace === paused) {
            errorClass.prepareStackTrace = installed;
        }
    };
}
`

// resourceSuperCall is a resource class's call of Pulumi's constructor, as the upstream generator writes it.
var resourceSuperCall = regexp.MustCompile(`(?m)^( +)super\((\w+)\.__pulumiType, name, resourceInputs, opts\);$`)

// withPausedPromiseStacks edits the Node.js SDK's files: each class that extends pulumi.CustomResource
// calls its super constructor between pausePromiseStacks and its resumption, and utilities.ts defines it.
func withPausedPromiseStacks(files map[string][]byte) (map[string][]byte, error) {
	utilities, ok := files["utilities.ts"]
	if !ok {
		return nil, fmt.Errorf("the Node.js SDK has no utilities.ts to define pausePromiseStacks in")
	}
	files["utilities.ts"] = append(utilities, []byte(pausePromiseStacksHelper)...)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		text := string(files[name])
		if !strings.HasSuffix(name, ".ts") || !strings.Contains(text, " extends pulumi.CustomResource {") {
			continue
		}
		calls := resourceSuperCall.FindAllStringSubmatchIndex(text, -1)
		if len(calls) != 1 {
			return nil, fmt.Errorf("%s: expected one `super(<Class>.__pulumiType, name, resourceInputs, opts);` "+
				"in a class extending pulumi.CustomResource, found %d", name, len(calls))
		}
		files[name] = []byte(resourceSuperCall.ReplaceAllString(text,
			"${1}const resumePromiseStacks = utilities.pausePromiseStacks();\n"+
				"${1}try {\n"+
				"${1}    super(${2}.__pulumiType, name, resourceInputs, opts);\n"+
				"${1}} finally {\n"+
				"${1}    resumePromiseStacks();\n"+
				"${1}}"))
	}
	return files, nil
}
