// Command docs is the documentation half of gen-sdks: the per-resource and per-function pages of the
// dns-account package, written by Pulumi's own docs generator, pkg/codegen/docs, the generator the
// Pulumi Registry's resourcedocsgen calls. The generator left github.com/pulumi/pulumi in v3.144.0 for
// github.com/pulumi/registry (whose Go module the proxy here refuses), so this module pins pkg/v3
// v3.143.0, the last release that carries it. It reads the package spec (already stamped with the
// version by gen-sdks) on stdin and prints the generated files as a JSON object of path to base64
// content on stdout: `_index.md` (the package's API index) and `<name>/_index.md` for each resource,
// function and the provider, the layout of the Registry's api-docs folder; gen-sdks writes them. Each
// page is rewritten from the Registry's HTML-laden Hugo Markdown into Markdown that reads on GitHub
// (markdown.go).
//
// The generator reports problems through glog (duplicate pages, examples that disagree with the
// resource): they are sent to stderr and any of them fails the run, so the schema is fixed instead.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/blang/semver"
	"github.com/golang/glog"
	"github.com/pulumi/pulumi/pkg/v3/codegen/docs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noLoader refuses every package reference: the dns-account schema refers to no other package.
type noLoader struct{}

func (noLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; gen-sdks loads no other package", pkg)
}

func (l noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

// placeholder is what the generator writes where an example lacks a language.
const placeholder = "Coming soon!"

func main() {
	// glog writes to files under the temporary folder unless told otherwise; its messages are wanted here.
	if err := flag.Set("logtostderr", "true"); err != nil {
		fail(err)
	}
	restore, err := captureStderr()
	if err != nil {
		fail(err)
	}
	var spec schema.PackageSpec
	if err := json.NewDecoder(os.Stdin).Decode(&spec); err != nil {
		fail(err)
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{})
	if err != nil {
		fail(err)
	}
	if diags.HasErrors() {
		fail(diags)
	}
	files, err := docs.NewContext("pulumi-dns-account gen-sdks", pkg).GeneratePackage()
	glog.Flush()
	messages := restore()
	if err != nil {
		fail(err)
	}
	if len(bytes.TrimSpace(messages)) > 0 {
		fail(fmt.Errorf("the docs generator warned (fix provider/schema/schema.json):\n%s", messages))
	}
	var enumValues []string
	for _, t := range pkg.Types {
		if e, ok := t.(*schema.EnumType); ok {
			for _, el := range e.Elements {
				enumValues = append(enumValues, fmt.Sprint(el.Value))
			}
		}
	}
	for name, content := range files {
		if bytes.Contains(content, []byte(placeholder)) {
			fail(fmt.Errorf("%s: an example lacks a language (the generator wrote %q); give every example all six", name, placeholder))
		}
		if files[name], err = toMarkdown(content, enumValues); err != nil {
			fail(fmt.Errorf("%s: %w", name, err))
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(files); err != nil {
		fail(err)
	}
}

// captureStderr points os.Stderr (where glog writes) at a pipe; restore puts it back and returns what
// was written.
func captureStderr() (func() []byte, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	saved := os.Stderr
	os.Stderr = w
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		done <- b
	}()
	restore := func() []byte {
		os.Stderr = saved
		_ = w.Close()
		return <-done
	}
	return restore, nil
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "gen-sdks (docs): %v\n", err)
	os.Exit(1)
}
