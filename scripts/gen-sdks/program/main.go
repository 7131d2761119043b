// Command program prints what Pulumi's program generators write for a PCL program (a file) that
// uses the dns-account package: the code `pulumi import --generate-code` and `pulumi convert` write
// through the Python, Go and Node.js language hosts, which call these same generators
// (pkg/codegen/{python,go,nodejs}.GenerateProgram) on the PCL the engine makes of the imported state.
// The language hosts cannot be built here, so test/package/sdks.test.ts runs this instead, to see how
// generated programs spell the package's enum members and types.
//
// Usage: go run -trimpath ./program -root ../.. program.pp
//
// It prints a JSON object of language to the generated main file's text (python: __main__.py, go:
// main.go, nodejs: index.ts), and fails on any error diagnostic of the binder or a generator.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// loader serves the dns-account package, bound from provider/schema/schema.json, and no other.
type loader struct{ pkg *schema.Package }

func (l loader) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	if name != l.pkg.Name {
		return nil, fmt.Errorf("the program refers to package %q; only %q is loaded", name, l.pkg.Name)
	}
	return l.pkg, nil
}

func (l loader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (l loader) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	pkg, err := l.LoadPackage(name, v)
	if err != nil {
		return nil, err
	}
	return pkg.Reference(), nil
}

func (l loader) LoadPackageReferenceV2(ctx context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}

func main() {
	root := flag.String("root", "../..", "the repository's root folder")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: program [-root DIR] PROGRAM.pp")
		os.Exit(2)
	}
	if err := run(*root, flag.Arg(0)); err != nil {
		fmt.Fprintf(os.Stderr, "gen-sdks (program): %v\n", err)
		os.Exit(1)
	}
}

func run(root, file string) error {
	raw, err := os.ReadFile(filepath.Join(root, "provider", "schema", "schema.json"))
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("provider/schema/schema.json: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, schema.NewNullLoader(), schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	source, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	parser := syntax.NewParser()
	if err := parser.ParseFile(bytes.NewReader(source), filepath.Base(file)); err != nil {
		return err
	}
	if parser.Diagnostics.HasErrors() {
		return parser.Diagnostics
	}
	program, bindDiags, err := pcl.BindProgram(parser.Files, loader{pkg})
	if err != nil {
		return err
	}
	if bindDiags.HasErrors() {
		return bindDiags
	}
	out := map[string]string{}
	for lang, gen := range map[string]struct {
		file     string
		generate func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error)
	}{
		"python": {"__main__.py", python.GenerateProgram},
		"go":     {"main.go", gogen.GenerateProgram},
		"nodejs": {"index.ts", nodejs.GenerateProgram},
	} {
		files, genDiags, err := gen.generate(program)
		if err != nil {
			return fmt.Errorf("%s: %w", lang, err)
		}
		if genDiags.HasErrors() {
			return fmt.Errorf("%s: %w", lang, genDiags)
		}
		out[lang] = string(files[gen.file])
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}
