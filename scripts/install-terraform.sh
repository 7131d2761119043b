#!/usr/bin/env bash
# Builds the Terraform CLI from its Go module, github.com/hashicorp/terraform at TERRAFORM_VERSION (default
# 1.13.3, the newest the Go module proxy lists here), into
# ${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/terraform/<version>/bin (outside the repository), for the
# tests that run the provider under Terraform as well as OpenTofu (test/tofu/terraform.test.ts). Does
# nothing when that binary is there already and `terraform version` answers with that version. Prints that
# folder as its last line:
#
#   bin="$(bash scripts/install-terraform.sh | tail -n 1)"
#
# The module comes through the Go module proxy with the ordinary `go` client (`go mod download -json`).
# Its zip leaves out the folders that are Go modules of their own: nine remote-state backends (azurerm,
# consul, cos, gcs, kubernetes, oci, oss, pg, s3) and internal/legacy (used by tests only). Their source is
# served by no registry, so the build takes them out in a writable copy: their `require` and `replace` lines
# go from go.mod, and their imports and entries from internal/backend/init/init.go. A `backend` block naming
# one of them is then refused as an unknown backend; the local backend (the tests' state), the http, inmem,
# remote and cloud backends and everything else are Terraform's own code, unchanged: the patch must find
# those lines exactly as expected, else the script fails, and the build is -mod=readonly, so it uses the
# module's own go.sum and dependency versions (go.mod loses only the lines named above). The flags are those of Terraform's release script
# (.github/scripts/get_product_version.sh: -ldflags "-w -s -X github.com/hashicorp/terraform/version.dev=no",
# so it says "1.13.3", not "1.13.3-dev"), with CGO_ENABLED=0 and -trimpath as in its build workflow.
#
# The build takes about 5 to 20 minutes on 2 shared cores. It runs under `nice -n 19`.
#
# Environment: TERRAFORM_VERSION (default 1.13.3, with or without a leading "v"); TERRAFORM_JOBS (go build
# -p, default 2). The script fails, naming what is missing, when `go`, `node` or `python3` is not on PATH,
# when the proxy refuses the module (its exact error is printed), or when the patch or the build fails.
set -euo pipefail

name=terraform
product=Terraform
version="${TERRAFORM_VERSION:-1.13.3}"
version="${version#v}"
module="github.com/hashicorp/terraform"
bin="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/terraform/$version/bin"
jobs="${TERRAFORM_JOBS:-2}"
# The shared steps, beside this script (no dirname: the tests run it with a PATH of node alone).
here="${BASH_SOURCE[0]%/*}"
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
# shellcheck source=go-cli-build.sh
. "$here/go-cli-build.sh"

require_tools
done_if_built
command -v python3 >/dev/null 2>&1 || fail "python3 is missing: it takes the absent backends out of the build"
fetch_module

# The modules the zip leaves out, out of the build (see the top of this file).
python3 - "$src" <<'PY' || fail "the build's patch no longer fits $module@v$version (see above)"
import re, sys
src = sys.argv[1]
absent = ["azure", "consul", "cos", "gcs", "kubernetes", "oci", "oss", "pg", "s3"]
keys = {"azure": "azurerm"}
init = f"{src}/internal/backend/init/init.go"
text = open(init).read()
for name in absent:
    text, n = re.subn(r'\n\tbackend\w+ "github\.com/hashicorp/terraform/internal/backend/remote-state/%s"' % name, "", text)
    text, m = re.subn(r'\n\t\t"%s":\s+func\(\) backend\.Backend \{ return backend\w+\.New\(\) \},' % keys.get(name, name), "", text)
    if n != 1 or m != 1:
        sys.exit(f"install-terraform: {init}: expected one import and one entry of the {name} backend, found {n} and {m}")
if "remote-state/" in re.sub(r'remote-state/(http|inmem)"', "", text):
    sys.exit(f"install-terraform: {init} still names a backend this build leaves out")
gomod = f"{src}/go.mod"
mod = open(gomod).read()
paths = [f"internal/backend/remote-state/{n}" for n in absent] + ["internal/legacy"]
for p in paths:
    mod, n = re.subn(r'\n\tgithub\.com/hashicorp/terraform/%s v0\.0\.0-00010101000000-000000000000' % re.escape(p), "", mod)
    mod, m = re.subn(r'\nreplace github\.com/hashicorp/terraform/%s => \./%s' % (re.escape(p), re.escape(p)), "", mod)
    if n != 1 or m != 1:
        sys.exit(f"install-terraform: {gomod}: expected one require and one replace of {p}, found {n} and {m}")
open(init, "w").write(text)
open(gomod, "w").write(mod)
PY

log "building terraform $version from $module@v$version without the backends its module leaves out (nice -n 19, -p $jobs); this takes a while"
(cd "$src" && CGO_ENABLED=0 nice -n 19 go build -mod=readonly -p "$jobs" -trimpath -ldflags "-w -s -X '$module/version.dev=no'" -o "$bin/terraform.tmp" .) ||
  fail "go build of $module@v$version failed (the compiler's errors are above)"
install_built
