// Command gen-sdks writes the Node.js, Python and Go SDKs of the dns-account provider from the package
// schema (provider/schema/schema.json) with Pulumi's own code generators, the Go packages
// `pulumi package gen-sdk` reaches through the language hosts (pkg/codegen/{nodejs,python,go} of
// github.com/pulumi/pulumi/pkg/v3, at the version of the engine `npm run engine` builds). The language
// hosts themselves are not needed: this program calls each GeneratePackage the way the host does.
//
// Usage (what `npm run sdks` runs):
//
//	cd scripts/gen-sdks && go run . -root ../.. [-out DIR] [-lang nodejs,python,go]
//
// Each SDK goes to <out>/<language>/ (default <root>/sdks), which is emptied first. The version is
// package.json's; the schema file itself is not changed. The output is the same bytes on every run:
// the generators sort what they emit, files are written in sorted order, and the Go SDK's go.mod pins
// github.com/pulumi/pulumi/sdk/v3 at this program's own pulumi version, so `go mod tidy` resolves the
// same go.sum every time.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"golang.org/x/mod/modfile"
)

// noLoader refuses every package reference: the dns-account schema refers to no other package, so a
// generator that asks for one has met a schema this program was not written for.
type noLoader struct{}

func (noLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; gen-sdks loads no other package", pkg)
}

func (l noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (noLoader) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q; gen-sdks loads no other package", pkg)
}

func (l noLoader) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}

// pulumiVersion is the version of github.com/pulumi/pulumi/pkg/v3 this program is built with (go.mod).
func pulumiVersion() (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", errors.New("no build information in this binary")
	}
	for _, dep := range info.Deps {
		if dep.Path == "github.com/pulumi/pulumi/pkg/v3" {
			return dep.Version, nil
		}
	}
	return "", errors.New("github.com/pulumi/pulumi/pkg/v3 is not among this program's modules")
}

// readSpec reads the schema and stamps it with the package's version. SupportPack makes the
// generators write the version into each SDK (pyproject.toml, package.json, the plugin files) and the
// Go SDK its own go.mod, as SDKs published from a repository need.
func readSpec(root string) (schema.PackageSpec, error) {
	var spec schema.PackageSpec
	raw, err := os.ReadFile(filepath.Join(root, "provider", "schema", "schema.json"))
	if err != nil {
		return spec, err
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		return spec, fmt.Errorf("provider/schema/schema.json: %w", err)
	}
	var pkgJSON struct {
		Version string `json:"version"`
	}
	raw, err = os.ReadFile(filepath.Join(root, "package.json"))
	if err != nil {
		return spec, err
	}
	if err := json.Unmarshal(raw, &pkgJSON); err != nil {
		return spec, fmt.Errorf("package.json: %w", err)
	}
	if _, err := semver.Parse(pkgJSON.Version); err != nil {
		return spec, fmt.Errorf("package.json version %q: %w", pkgJSON.Version, err)
	}
	spec.Version = pkgJSON.Version
	if spec.Meta == nil {
		spec.Meta = &schema.MetadataSpec{}
	}
	spec.Meta.SupportPack = true
	return spec, nil
}

// bind validates the spec against Pulumi's metaschema and binds it, as the language hosts do.
func bind(spec schema.PackageSpec) (*schema.Package, error) {
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return pkg, nil
}

// write empties dir and writes files into it in sorted order.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		target := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

const tool = "pulumi-dns-account gen-sdks"

func genNodejs(spec schema.PackageSpec) (map[string][]byte, error) {
	pkg, err := bind(spec)
	if err != nil {
		return nil, err
	}
	return nodejs.GeneratePackage(tool, pkg, nil, nil, false, noLoader{})
}

func genPython(spec schema.PackageSpec) (map[string][]byte, error) {
	pkg, err := bind(spec)
	if err != nil {
		return nil, err
	}
	files, err := python.GeneratePackage(tool, pkg, nil, noLoader{})
	if err != nil {
		return nil, err
	}
	// pyproject.toml names README.md beside it; the generator writes the readme inside the package only.
	for name, content := range files {
		if strings.Count(name, "/") == 1 && strings.HasSuffix(name, "/README.md") {
			files["README.md"] = content
		}
	}
	return files, nil
}

// genGo writes the Go SDK and its go.mod, requiring github.com/pulumi/pulumi/sdk/v3 at the version this
// program is built with (the generator's own go.mod asks for an old minimum the generated code outgrew).
func genGo(spec schema.PackageSpec, sdkVersion string) (map[string][]byte, error) {
	pkg, err := bind(spec)
	if err != nil {
		return nil, err
	}
	files, err := gogen.GeneratePackage(tool, pkg, nil)
	if err != nil {
		return nil, err
	}
	mod, err := modfile.Parse("go.mod", files["go.mod"], nil)
	if err != nil {
		return nil, err
	}
	if err := mod.AddRequire("github.com/pulumi/pulumi/sdk/v3", sdkVersion); err != nil {
		return nil, err
	}
	if files["go.mod"], err = mod.Format(); err != nil {
		return nil, err
	}
	return files, nil
}

// tidy runs `go mod tidy` in the Go SDK's folder, which writes go.sum and the indirect requirements.
func tidy(dir string) error {
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout = os.Stderr
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go mod tidy in %s: %w\n%s", dir, err, stderr.String())
	}
	return nil
}

func main() {
	root := flag.String("root", "../..", "the repository's root folder")
	out := flag.String("out", "", "where the SDKs go, one folder per language (default <root>/sdks)")
	langs := flag.String("lang", "nodejs,python,go", "the languages to generate, comma-separated")
	flag.Parse()
	if err := run(*root, *out, strings.Split(*langs, ",")); err != nil {
		fmt.Fprintf(os.Stderr, "gen-sdks: %v\n", err)
		os.Exit(1)
	}
}

func run(root, out string, langs []string) error {
	if out == "" {
		out = filepath.Join(root, "sdks")
	}
	spec, err := readSpec(root)
	if err != nil {
		return err
	}
	sdkVersion, err := pulumiVersion()
	if err != nil {
		return err
	}
	for _, lang := range langs {
		var files map[string][]byte
		switch lang {
		case "nodejs":
			files, err = genNodejs(spec)
		case "python":
			files, err = genPython(spec)
		case "go":
			files, err = genGo(spec, sdkVersion)
		default:
			return fmt.Errorf("unknown language %q (nodejs, python, go)", lang)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", lang, err)
		}
		dir := filepath.Join(out, lang)
		if err := write(dir, files); err != nil {
			return fmt.Errorf("%s: %w", lang, err)
		}
		if lang == "go" {
			if err := tidy(dir); err != nil {
				return err
			}
		}
		fmt.Fprintf(os.Stderr, "gen-sdks: %s SDK in %s (%d files)\n", lang, dir, len(files))
	}
	return nil
}
