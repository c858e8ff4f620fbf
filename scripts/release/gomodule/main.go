// Command gomodule writes a Go module's release files in the GOPROXY layout, made by Go's own module
// tooling (golang.org/x/mod/zip), from a folder holding the module's files at the commit a tag would name
// (`git archive` of it: only committed files, as `go mod download` fetches them once the tag is pushed).
//
//	gomodule <module folder> <module path> <version> <time RFC 3339> <out dir>
//
// It writes <out>/<module path>/@v/{list,<version>.info,<version>.mod,<version>.zip}.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: gomodule <module folder> <module path> <version> <time> <out dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]); err != nil {
		fmt.Fprintf(os.Stderr, "gomodule: %v\n", err)
		os.Exit(1)
	}
}

func run(moduleDir, modulePath, version, time, out string) error {
	mod := module.Version{Path: modulePath, Version: version}
	if err := module.Check(mod.Path, mod.Version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(mod.Path)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	zipFile, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		return err
	}
	if err := modzip.CreateFromDir(zipFile, mod, moduleDir); err != nil {
		zipFile.Close()
		return fmt.Errorf("module zip of %s: %w", moduleDir, err)
	}
	if err := zipFile.Close(); err != nil {
		return err
	}
	goMod, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, version+".mod"), goMod, 0o644); err != nil {
		return err
	}
	info, err := json.Marshal(struct{ Version, Time string }{version, time})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, version+".info"), append(info, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "list"), []byte(version+"\n"), 0o644)
}
