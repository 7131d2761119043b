// Command gen-sdks writes the Node.js, Python, Go, .NET and Java SDKs of the dns-account provider from
// the package schema (provider/schema/schema.json) with Pulumi's own code generators, the Go packages
// `pulumi package gen-sdk` reaches through the language hosts: pkg/codegen/{nodejs,python,go} of
// github.com/pulumi/pulumi/pkg/v3 at the version of the engine `npm run engine` builds (this module);
// pkg/codegen/dotnet of pkg/v3 v3.206.0 (the generator has since moved to pulumi-dotnet, which the Go
// module proxy refuses here) in the module ./dotnet; pulumi-java's codegen/java in the module ./java.
// The language hosts themselves are not needed: each GeneratePackage is called the way its host does.
// The per-resource and per-function docs come from Pulumi's docs generator, pkg/codegen/docs of pkg/v3
// v3.143.0 (the last release that carries it; it has since moved to pulumi/registry), in the module
// ./docs. The three other modules are run with `go run`, reading the spec on stdin and printing the files.
//
// Usage (what `npm run sdks` runs):
//
//	cd scripts/gen-sdks && go run -trimpath . -root ../.. [-out DIR] [-docs DIR] [-lang nodejs,python,go,dotnet,java,docs]
//
// Each SDK goes to <out>/<language>/ (default <root>/sdks), the docs to the -docs folder (default
// <root>/docs/api-docs, the Registry's api-docs layout: _index.md and <name>/_index.md); each folder
// is emptied first. The version is
// package.json's; the schema file itself is not changed. The output is the same bytes on every run:
// the generators sort what they emit, files are written in sorted order, and the Go SDK's go.mod pins
// github.com/pulumi/pulumi/sdk/v3 at this program's own pulumi version, so `go mod tidy` resolves the
// same go.sum every time.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// genNodejs writes the Node.js SDK as a local SDK (localSDK: true), the form `pulumi package gen-sdk
// --local` and `pulumi package add` write: package.json's `main` is bin/index.js, a postinstall script
// (scripts/postinstall.js) compiles the TypeScript sources into bin/ with `tsc`, and typescript and
// @types/node are dependencies so that the install has them. The folder carries sources only (its
// .gitignore leaves bin/ and node_modules/ out), so `npm install --install-links <clone>/sdks/nodejs`
// (npm packs the folder and installs it like a tarball, with its dependencies) gives a built,
// requireable package. A plain `npm install <folder>` links the folder instead: npm then installs none of
// its dependencies, and tsc and @pulumi/pulumi are not found from the clone.
func genNodejs(spec schema.PackageSpec) (map[string][]byte, error) {
	pkg, err := bind(spec)
	if err != nil {
		return nil, err
	}
	return nodejs.GeneratePackage(tool, pkg, nil, nil, true, noLoader{})
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

// genElsewhere runs the generator module scripts/gen-sdks/<lang> (`go run`), which has its own pulumi
// version: the spec goes in on stdin, the files come back as JSON on stdout.
func genElsewhere(root string, spec schema.PackageSpec, lang string) (map[string][]byte, error) {
	in, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "run", "-trimpath", ".")
	cmd.Dir = filepath.Join(root, "scripts", "gen-sdks", lang)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go run in %s: %w\n%s", cmd.Dir, err, stderr.String())
	}
	if err := warnings(lang, stderr.String()); err != nil {
		return nil, err
	}
	var files map[string][]byte
	if err := json.Unmarshal(stdout.Bytes(), &files); err != nil {
		return nil, fmt.Errorf("go run in %s printed no files: %w", cmd.Dir, err)
	}
	return files, nil
}

// javaConfigSecret is the one warning a generator gives that the schema cannot fix: pulumi-java reads
// configuration as plain values, so it notes each secret configuration variable (apiKey, password,
// mfaToken, refreshToken). Dropping `secret` would lose the secrecy the other SDKs and the engine keep.
var javaConfigSecret = regexp.MustCompile(`^WARN: secret property \w+ \(property of config\) does not have an Output type$`)

// warnings fails on anything a generator module printed on stderr besides the go tool's own progress
// ("go: downloading …") and the known Java configuration note, which is shown, not hidden: warnings are
// fixed in the schema.
func warnings(lang, stderr string) error {
	var unknown []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "go: "):
		case lang == "java" && javaConfigSecret.MatchString(line):
			fmt.Fprintf(os.Stderr, "gen-sdks: java: %s (expected: Java reads configuration as plain values)\n", line)
		default:
			unknown = append(unknown, line)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("the %s generator warned (fix provider/schema/schema.json):\n%s", lang, strings.Join(unknown, "\n"))
	}
	return nil
}

func main() {
	root := flag.String("root", "../..", "the repository's root folder")
	out := flag.String("out", "", "where the SDKs go, one folder per language (default <root>/sdks)")
	docsOut := flag.String("docs", "", "where the per-resource docs go (default <root>/docs/api-docs)")
	langs := flag.String("lang", "nodejs,python,go,dotnet,java,docs", "the languages to generate, comma-separated (docs: the per-resource docs)")
	flag.Parse()
	if err := run(*root, *out, *docsOut, strings.Split(*langs, ",")); err != nil {
		fmt.Fprintf(os.Stderr, "gen-sdks: %v\n", err)
		os.Exit(1)
	}
}

func run(root, out, docsOut string, langs []string) error {
	if out == "" {
		out = filepath.Join(root, "sdks")
	}
	if docsOut == "" {
		docsOut = filepath.Join(root, "docs", "api-docs")
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
		case "dotnet", "docs":
			files, err = genElsewhere(root, spec, lang)
		case "java":
			if files, err = genElsewhere(root, spec, lang); err == nil {
				files["pom.xml"], err = pom(spec)
			}
		default:
			return fmt.Errorf("unknown language %q (nodejs, python, go, dotnet, java, docs)", lang)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", lang, err)
		}
		dir := filepath.Join(out, lang)
		if lang == "docs" {
			dir = docsOut
		}
		if err := write(dir, files); err != nil {
			return fmt.Errorf("%s: %w", lang, err)
		}
		if lang == "go" {
			if err := tidy(dir); err != nil {
				return err
			}
		}
		what := lang + " SDK"
		if lang == "docs" {
			what = "per-resource docs"
		}
		fmt.Fprintf(os.Stderr, "gen-sdks: %s in %s (%d files)\n", what, dir, len(files))
	}
	return nil
}

// javaInfo is what the schema's language.java section says that pom.xml needs.
type javaInfo struct {
	BasePackage  string            `json:"basePackage"`
	Dependencies map[string]string `json:"dependencies"`
}

// pom writes the Maven build of the Java SDK (pulumi-java generates Gradle files only): coordinates
// io.github.pulumi-dns-account:dns-account:<version>, the Java SDK it compiles against from the schema's
// language.java.dependencies, Java 11 as pulumi-java requires, and pinned plugin versions (Maven 3.8's
// defaults cannot compile for Java 11).
func pom(spec schema.PackageSpec) ([]byte, error) {
	var info javaInfo
	if err := json.Unmarshal(spec.Language["java"], &info); err != nil {
		return nil, fmt.Errorf("language.java: %w", err)
	}
	names := make([]string, 0, len(info.Dependencies))
	for name := range info.Dependencies {
		names = append(names, name)
	}
	sort.Strings(names)
	var deps strings.Builder
	for _, name := range names {
		group, artifact, ok := strings.Cut(name, ":")
		if !ok {
			return nil, fmt.Errorf("language.java.dependencies: %q is not groupId:artifactId", name)
		}
		fmt.Fprintf(&deps, `        <dependency>
            <groupId>%s</groupId>
            <artifactId>%s</artifactId>
            <version>%s</version>
        </dependency>
`, group, artifact, info.Dependencies[name])
	}
	return []byte(fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by pulumi-dns-account gen-sdks from provider/schema/schema.json: do not edit. -->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
    <modelVersion>4.0.0</modelVersion>
    <groupId>io.github.pulumi-dns-account</groupId>
    <artifactId>%s</artifactId>
    <version>%s</version>
    <packaging>jar</packaging>
    <name>%s</name>
    <description>%s</description>
    <url>%s</url>
    <licenses>
        <license>
            <name>%s</name>
        </license>
    </licenses>
    <properties>
        <maven.compiler.release>11</maven.compiler.release>
        <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
        <project.build.outputTimestamp>2000-01-01T00:00:00Z</project.build.outputTimestamp>
    </properties>
    <dependencies>
%s    </dependencies>
    <build>
        <plugins>
            <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-compiler-plugin</artifactId>
                <version>3.13.0</version>
            </plugin>
            <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-resources-plugin</artifactId>
                <version>3.3.1</version>
            </plugin>
            <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-jar-plugin</artifactId>
                <version>3.4.2</version>
            </plugin>
            <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-surefire-plugin</artifactId>
                <version>3.5.2</version>
            </plugin>
            <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-install-plugin</artifactId>
                <version>3.1.3</version>
            </plugin>
        </plugins>
    </build>
</project>
`, spec.Name, spec.Version, spec.DisplayName, xmlText(spec.Description), spec.Homepage, spec.License, deps.String())), nil
}

// xmlText escapes s for an XML element's text.
func xmlText(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
