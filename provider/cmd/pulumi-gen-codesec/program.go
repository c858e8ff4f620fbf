package main

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
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
	{"go", "main.go", generateGoProgram},
}

// generateGoProgram is gogen.GenerateProgram with goProgramFixes applied to its main.go.
func generateGoProgram(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error) {
	files, diags, err := gogen.GenerateProgram(program)
	if err != nil || len(diags) > 0 {
		return files, diags, err
	}
	if text, ok := files["main.go"]; ok {
		fixed, err := goProgramFixes(program, text)
		if err != nil {
			return nil, nil, err
		}
		files["main.go"] = fixed
	}
	return files, diags, nil
}

// goProgramFixes corrects what Go's program generator (pkg/v3 v3.259.0) writes wrong for this package, so
// that the example compiles against the SDK its package generator writes (tests/e2e/docsExamples.test.ts
// compiles every one). Two rewrites, each of a call the generator writes in one fixed form:
//
//   - A function named get<Kind> where <Kind> is a resource of the same module is Lookup<Kind> in the Go
//     SDK (pulumi-aws's LookupVpc); the program generator knows the rule (useLookupInvokeForm) but misses
//     it for a token in the index module written `pkg:index:getX`, the form the codesec schema uses.
//   - A function without arguments takes none in the Go SDK (`GetCurrentUser(ctx, opts...)`), but the
//     program generator passes it the empty argument map PCL requires (`map[string]interface{}{}`).
//
// Both are made on the parsed program (go/ast), to the package's own selectors only (`codesec.GetScmApp`,
// `codesec.GetCurrentUser(ctx, map[string]interface{}{}, ...)`): the same text in a comment or a string
// is left as it is. The result is printed with go/format.
func goProgramFixes(program *pcl.Program, text []byte) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "main.go", text, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("the Go program does not parse: %w", err)
	}
	for _, pkg := range programPackages(program) {
		renames := map[string]string{}
		noArguments := map[string]bool{}
		resources := map[string]bool{}
		for _, resource := range pkg.Resources {
			resources[resource.Token] = true
		}
		for _, function := range pkg.Functions {
			pkgName, module, member, ok := splitToken(function.Token)
			if !ok || !strings.HasPrefix(member, "get") {
				continue
			}
			goName := "Get" + member[len("get"):]
			if resources[pkgName+":"+module+":"+member[len("get"):]] {
				lookup := "Lookup" + member[len("get"):]
				for _, suffix := range []string{"", "Output", "Args", "OutputArgs", "Result", "ResultOutput"} {
					renames[goName+suffix] = lookup + suffix
				}
				goName = lookup
			}
			if function.Inputs == nil || len(function.Inputs.Properties) == 0 {
				noArguments[goName] = true
				noArguments[goName+"Output"] = true
			}
		}
		ast.Inspect(file, func(node ast.Node) bool {
			switch node := node.(type) {
			case *ast.SelectorExpr:
				if isPackage(node.X, pkg.Name) {
					if lookup, ok := renames[node.Sel.Name]; ok {
						node.Sel.Name = lookup
					}
				}
			case *ast.CallExpr:
				// The call is visited before its selector: its name is still the generator's here.
				selector, ok := node.Fun.(*ast.SelectorExpr)
				if !ok || !isPackage(selector.X, pkg.Name) {
					break
				}
				name := selector.Sel.Name
				if renamed, ok := renames[name]; ok {
					name = renamed
				}
				if noArguments[name] && len(node.Args) >= 2 && isEmptyMap(node.Args[1]) {
					node.Args = append(node.Args[:1:1], node.Args[2:]...)
				}
			}
			return true
		})
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, file); err != nil {
		return nil, fmt.Errorf("the Go program after its fixes does not format: %w", err)
	}
	return format.Source(out.Bytes())
}

// isPackage is whether expr is the package identifier name (`codesec` in `codesec.GetScmApp`).
func isPackage(expr ast.Expr, name string) bool {
	ident, ok := expr.(*ast.Ident)
	return ok && ident.Name == name
}

// isEmptyMap is whether expr is `map[string]interface{}{}`: the empty argument map PCL requires.
func isEmptyMap(expr ast.Expr) bool {
	literal, ok := expr.(*ast.CompositeLit)
	if !ok || len(literal.Elts) > 0 {
		return false
	}
	_, isMap := literal.Type.(*ast.MapType)
	return isMap
}

// programPackages are the schema packages a bound program uses.
func programPackages(program *pcl.Program) []*schema.Package {
	var packages []*schema.Package
	for _, ref := range program.PackageReferences() {
		if pkg, err := ref.Definition(); err == nil {
			packages = append(packages, pkg)
		}
	}
	return packages
}

// splitToken splits `pkg:module:member`.
func splitToken(token string) (string, string, string, bool) {
	parts := strings.Split(token, ":")
	if len(parts) != 3 {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
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
	if err := parser.ParseFile(bytes.NewReader(source), pclPath); err != nil {
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
		lines = append(lines, "  "+diagnosticLine(diag))
	}
	return fmt.Errorf("%s %s (%d diagnostics):\n%s", file, what, len(diags), strings.Join(lines, "\n"))
}

// diagnosticLine is a diagnostic as `file:line:column: summary: detail`. The PCL parser starts counting at
// hcl.Pos{} (line 0, and column 0 on the first line only, 1 on the others): the line and column here are
// an editor's, from 1.
func diagnosticLine(diag *hcl.Diagnostic) string {
	text := diag.Summary
	if diag.Detail != "" && diag.Detail != diag.Summary {
		text += ": " + diag.Detail
	}
	if diag.Subject == nil {
		return text
	}
	start := diag.Subject.Start
	column := start.Column
	if start.Line == 0 {
		column++
	}
	return fmt.Sprintf("%s:%d:%d: %s", diag.Subject.Filename, start.Line+1, column, text)
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
