// Command java is the Java half of gen-sdks: Pulumi's Java code generator lives in
// github.com/pulumi/pulumi-java/pkg, which this module pins at v1.12.0 (the newest release whose
// checksum the Go checksum database serves here; it brings its own pulumi/pkg/v3). It reads the package
// spec (already stamped with the version by gen-sdks) on stdin and prints the generated files as a JSON
// object of path to base64 content on stdout; gen-sdks writes them. No Gradle files are generated
// (buildFiles "none" in the schema): gen-sdks adds a Maven pom.xml.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi-java/pkg/codegen/java"
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

func main() {
	// The generator prints warnings on stdout; stdout carries the files.
	out := os.Stdout
	os.Stdout = os.Stderr
	var spec schema.PackageSpec
	if err := json.NewDecoder(os.Stdin).Decode(&spec); err != nil {
		fail(err)
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		fail(err)
	}
	if diags.HasErrors() {
		fail(diags)
	}
	files, err := java.GeneratePackage("pulumi-dns-account gen-sdks", pkg, nil, nil, false, false)
	if err != nil {
		fail(err)
	}
	if err := json.NewEncoder(out).Encode(files); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "gen-sdks (java): %v\n", err)
	os.Exit(1)
}
