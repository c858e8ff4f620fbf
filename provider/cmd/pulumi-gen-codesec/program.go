package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
)

// programLanguages are the languages a docs example is generated in, each with the program generator of
// pkg/v3 at the CLI's version and the file its program goes to: the folder of each under the example's
// output folder. (YAML's program generator lives in pulumi-yaml, whose only release the module proxy
// serves here, v1.25.0, does not compile against pkg/v3 v3.259.0.)
var programLanguages = []struct {
	folder   string
	file     string
	generate func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error)
}{
	{"typescript", "index.ts", nodejs.GenerateProgram},
	{"python", "__main__.py", python.GenerateProgram},
	{"go", "main.go", gogen.GenerateProgram},
}

// generatePrograms binds one PCL program (a docs example) against pkg and writes it in every language of
// programLanguages to <outdir>/<folder>/<file>, replacing those folders. Any diagnostic of the binding or
// of a generator, warnings too, fails it and writes nothing: an example that does not bind cleanly against
// the schema is a broken example.
func generatePrograms(pkg *schema.Package, pclPath, outdir string) error {
	source, err := os.ReadFile(pclPath)
	if err != nil {
		return err
	}
	parser := syntax.NewParser()
	if err := parser.ParseFile(bytes.NewReader(source), filepath.Base(pclPath)); err != nil {
		return err
	}
	if len(parser.Diagnostics) > 0 {
		return diagnosticsError(pclPath, "does not parse", parser.Diagnostics)
	}
	program, diags, err := pcl.BindProgram(parser.Files, onePackage{pkg})
	if len(diags) > 0 {
		return diagnosticsError(pclPath, "does not bind against the schema", diags)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", pclPath, err)
	}
	outputs := map[string][]byte{}
	for _, language := range programLanguages {
		files, diags, err := language.generate(program)
		if len(diags) > 0 {
			return diagnosticsError(pclPath, "gives diagnostics in "+language.folder, diags)
		}
		if err != nil {
			return fmt.Errorf("%s in %s: %w", pclPath, language.folder, err)
		}
		text, ok := files[language.file]
		if !ok || len(files) != 1 {
			return fmt.Errorf("%s in %s: expected the one file %s, the generator wrote %d files",
				pclPath, language.folder, language.file, len(files))
		}
		outputs[language.folder] = text
	}
	for _, language := range programLanguages {
		folder := filepath.Join(outdir, language.folder)
		if err := os.RemoveAll(folder); err != nil {
			return err
		}
		if err := os.MkdirAll(folder, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(folder, language.file), outputs[language.folder], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func diagnosticsError(file, what string, diags hcl.Diagnostics) error {
	lines := make([]string, 0, len(diags))
	for _, diag := range diags {
		lines = append(lines, "  "+diag.Error())
	}
	return fmt.Errorf("%s %s (%d diagnostics):\n%s", file, what, len(diags), strings.Join(lines, "\n"))
}

// onePackage serves codesec's own package, bound from schema.json, to the PCL binder: no plugin host, no
// download. Any other package is an error.
type onePackage struct{ pkg *schema.Package }

var _ schema.ReferenceLoader = onePackage{}

func (l onePackage) load(name string) (*schema.Package, error) {
	if name != l.pkg.Name {
		return nil, fmt.Errorf("an example references package %q: examples may use %q only", name, l.pkg.Name)
	}
	return l.pkg, nil
}

func (l onePackage) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return l.load(name)
}

func (l onePackage) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.load(d.Name)
}

func (l onePackage) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	pkg, err := l.load(name)
	if err != nil {
		return nil, err
	}
	return pkg.Reference(), nil
}

func (l onePackage) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}
