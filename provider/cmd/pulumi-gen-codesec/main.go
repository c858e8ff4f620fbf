// Command pulumi-gen-codesec binds codesec's Pulumi package schema and writes an SDK from it, with the
// code generators of github.com/pulumi/pulumi/pkg/v3 at the CLI's own version (go.mod):
//
//	pulumi-gen-codesec <schema.json> bind                  bind only: fail on any diagnostic
//	pulumi-gen-codesec <schema.json> <language> <outdir>   language: nodejs, python or go
//	pulumi-gen-codesec <schema.json> program <example.pp> <outdir>
//	                                                       a docs example from its PCL source, in TypeScript,
//	                                                       Python and Go: <outdir>/{typescript,python,go}
//
// Why a program of its own: `pulumi package gen-sdk` asks the language host to generate the SDK
// (GeneratePackage), and the Node.js language host that can be built here (scripts/install-pulumi.sh,
// build_language_host) is older than the CLI and lacks that call. Pulumi's own providers generate their SDKs
// the same way, with a `pulumi-gen-<name>` tool calling pkg/codegen directly.
//
// The schema is bound with the full validation of `schema.BindSpec` (the metaschema included), and every
// diagnostic, warnings too, is an error: an SDK is only written from a schema that binds cleanly. The
// output folder is replaced as a whole, so a file the schema no longer generates does not linger; a folder
// that holds anything else than a previous output of this program is refused, not emptied.
//
// `npm run setup` builds it (scripts/build-generator.sh) and `npm run generate` runs it (scripts/generate.ts).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
)

// tool is the name the generated files' "do not edit" headers give.
const tool = "pulumi-gen-codesec"

const usage = `usage: pulumi-gen-codesec <schema.json> bind
       pulumi-gen-codesec <schema.json> <nodejs|python|go> <outdir>
       pulumi-gen-codesec <schema.json> program <example.pp> <outdir>`

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-gen-codesec: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 2 && args[1] == "bind":
		_, err := bind(args[0])
		return err
	case len(args) == 4 && args[1] == "program":
		pkg, err := bind(args[0])
		if err != nil {
			return err
		}
		return generatePrograms(pkg, args[2], args[3])
	case len(args) == 3:
		pkg, err := bind(args[0])
		if err != nil {
			return err
		}
		files, err := generate(pkg, args[1])
		if err != nil {
			return err
		}
		return writeOutput(args[2], files)
	default:
		return errors.New(usage)
	}
}

// bind reads and validates the schema; any diagnostic fails it.
func bind(schemaPath string) (*schema.Package, error) {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	if len(diags) > 0 {
		lines := make([]string, 0, len(diags))
		for _, diag := range diags {
			lines = append(lines, "  "+diag.Error())
		}
		return nil, fmt.Errorf("%s does not bind cleanly (%d diagnostics):\n%s",
			schemaPath, len(diags), strings.Join(lines, "\n"))
	}
	return pkg, nil
}

func generate(pkg *schema.Package, language string) (map[string][]byte, error) {
	switch language {
	case "nodejs":
		files, err := nodejs.GeneratePackage(tool, pkg, nil, nil, false, noPackages{})
		if err != nil {
			return nil, err
		}
		return withPausedPromiseStacks(files)
	case "python":
		return python.GeneratePackage(tool, pkg, nil, noPackages{})
	case "go":
		files, err := gogen.GeneratePackage(tool, pkg, nil)
		if err != nil {
			return nil, err
		}
		return withGoMod(pkg, files)
	default:
		return nil, fmt.Errorf("unknown language %q (nodejs, python or go)\n%s", language, usage)
	}
}

// withGoMod adds the SDK's go.mod, which the Go generator writes only for "support pack" SDKs (a mode that
// changes the other languages' packaging too): the module is the import base path's parent, as in
// Pulumi's own providers (github.com/pulumi/pulumi-aws/sdk/v7 for .../sdk/v7/go/aws), and it requires the
// Go SDK at the release this generator's codegen comes from, the CLI's.
func withGoMod(pkg *schema.Package, files map[string][]byte) (map[string][]byte, error) {
	info, ok := pkg.Language["go"].(gogen.GoPackageInfo)
	if !ok || info.ImportBasePath == "" {
		return nil, errors.New("the schema's language.go has no importBasePath: cannot name the Go module")
	}
	modulePath := path.Dir(info.ImportBasePath)
	if pkg.Version != nil && pkg.Version.Major > 1 {
		modulePath = fmt.Sprintf("%s/v%d", modulePath, pkg.Version.Major)
	}
	sdkVersion, err := buildDependencyVersion(pulumiGoSdk)
	if err != nil {
		return nil, err
	}
	files["go.mod"] = []byte(fmt.Sprintf("module %s\n\ngo 1.25\n\nrequire %s %s\n", modulePath, pulumiGoSdk, sdkVersion))
	return files, nil
}

// pulumiGoSdk is the module the generated Go SDK builds on.
const pulumiGoSdk = "github.com/pulumi/pulumi/sdk/v3"

// buildDependencyVersion is the version of module `module` this program was built with.
func buildDependencyVersion(module string) (string, error) {
	build, ok := debug.ReadBuildInfo()
	if !ok {
		return "", errors.New("no build information in this executable: cannot tell the Pulumi Go SDK's version")
	}
	for _, dep := range build.Deps {
		if dep.Path == module {
			if dep.Replace != nil {
				return dep.Replace.Version, nil
			}
			return dep.Version, nil
		}
	}
	return "", fmt.Errorf("%s is not a dependency of this build", module)
}

// writeOutput replaces outdir's content with files (paths relative to it).
func writeOutput(outdir string, files map[string][]byte) error {
	if err := checkReplaceable(outdir); err != nil {
		return err
	}
	if err := os.RemoveAll(outdir); err != nil {
		return err
	}
	paths := make([]string, 0, len(files))
	for path := range files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		target := filepath.Join(outdir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[path], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// checkReplaceable refuses to empty a folder that is not a previous output of this program: one that
// exists, is not empty, and has no file naming this tool in its "generated" header. A mistyped outdir
// (the repository root, say) is then an error, not a loss.
func checkReplaceable(outdir string) error {
	entries, err := os.ReadDir(outdir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	found := false
	walkErr := filepath.WalkDir(outdir, func(path string, entry fs.DirEntry, err error) error {
		if err != nil || found {
			return err
		}
		if entry.IsDir() {
			if depth(outdir, path) > 2 {
				return filepath.SkipDir
			}
			return nil
		}
		head, err := readHead(path, 512)
		if err != nil {
			return err
		}
		found = strings.Contains(head, tool)
		return nil
	})
	if walkErr != nil {
		return walkErr
	}
	if !found {
		return fmt.Errorf("%s is not empty and holds no earlier output of %s: refusing to replace it", outdir, tool)
	}
	return nil
}

func depth(root, path string) int {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." {
		return 0
	}
	return len(strings.Split(rel, string(filepath.Separator)))
}

func readHead(path string, size int) (string, error) {
	file, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer file.Close()
	buf := make([]byte, size)
	n, err := file.Read(buf)
	if err != nil && n == 0 && !errors.Is(err, io.EOF) {
		return "", err
	}
	return string(buf[:n]), nil
}

// noPackages is the loader for other packages' schemas: codesec's schema references none (only the
// built-in pulumi.json types), so any request for one is an error instead of a plugin download.
type noPackages struct{}

var _ schema.ReferenceLoader = noPackages{}

func (noPackages) refuse(name string) error {
	return fmt.Errorf("the codesec schema references package %q: it may reference no other package", name)
}

func (l noPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, l.refuse(name)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.refuse(d.Name)
}

func (l noPackages) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, l.refuse(name)
}

func (l noPackages) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, l.refuse(d.Name)
}
