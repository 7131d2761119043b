// Command dotnet is the .NET half of gen-sdks: Pulumi's C# code generator left github.com/pulumi/pulumi
// for github.com/pulumi/pulumi-dotnet (whose Go modules the proxy here refuses), so this module pins
// pkg/v3 v3.206.0, a release that still carries pkg/codegen/dotnet. It reads the package spec (already
// stamped with the version by gen-sdks) on stdin and prints the generated files as a JSON object of
// path to base64 content on stdout; gen-sdks writes them.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
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

// logo answers the generator's download of the NuGet package icon (it fetches the schema's logoUrl, or
// Pulumi's logo from GitHub, with http.Get) without the network: a plain 64x64 PNG, the same bytes on
// every run, so generation is offline and deterministic.
type logo struct{}

func (logo) RoundTrip(req *http.Request) (*http.Response, error) {
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			img.Set(x, y, color.NRGBA{R: 0x4f, G: 0x6d, B: 0x7a, A: 0xff})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"image/png"}},
		Body: io.NopCloser(&b), ContentLength: int64(b.Len()), Request: req}, nil
}

func main() {
	http.DefaultTransport = logo{}
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
	files, err := dotnet.GeneratePackage("pulumi-dns-account gen-sdks", pkg, nil, nil)
	if err != nil {
		fail(err)
	}
	if err := json.NewEncoder(os.Stdout).Encode(files); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "gen-sdks (dotnet): %v\n", err)
	os.Exit(1)
}
