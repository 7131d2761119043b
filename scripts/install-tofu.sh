#!/usr/bin/env bash
# Builds the real OpenTofu CLI (`tofu`) from its Go module, github.com/opentofu/opentofu at TOFU_VERSION
# (default 1.12.6, the newest 1.12.x the Go module proxy serves here), into
# ${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/tofu/<version>/bin (outside the repository).
# Does nothing when that binary is there already and `tofu version` answers with that version. Prints that
# folder as its last line, so other tools can find it:
#
#   bin="$(bash scripts/install-tofu.sh | tail -n 1)"
#
# The module comes through the Go module proxy with the ordinary `go` client (`go mod download -json`);
# nothing is downloaded by hand. `go install github.com/opentofu/opentofu/cmd/tofu@VERSION` refuses the
# module for its one `replace` line (github.com/hashicorp/hcl/v2 => github.com/opentofu/hcl/v2), so the
# module cache's read-only folder is copied to a writable one and `go build ./cmd/tofu` runs there, with
# the flags of OpenTofu's own releases (.goreleaser.yaml: CGO_ENABLED=0, -mod=readonly, -trimpath,
# -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no", so it says "1.12.6", not "1.12.6-dev").
#
# The build is heavy: about 10 to 40 minutes on 2 shared cores and up to 2 GB of memory. It runs under
# `nice -n 19`.
#
# Environment: TOFU_VERSION (default 1.12.6, with or without a leading "v"); TOFU_JOBS (go build -p,
# default 2). The script fails, naming what is missing, when `go` or `node` is not on PATH, when the proxy
# refuses the module (its exact error is printed), or when the build fails.
set -euo pipefail

name=tofu
product=OpenTofu
version="${TOFU_VERSION:-1.12.6}"
version="${version#v}"
module="github.com/opentofu/opentofu"
bin="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/tofu/$version/bin"
jobs="${TOFU_JOBS:-2}"
# The shared steps, beside this script (no dirname: the tests run it with a PATH of node alone).
here="${BASH_SOURCE[0]%/*}"
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
# shellcheck source=go-cli-build.sh
. "$here/go-cli-build.sh"

require_tools
done_if_built
fetch_module

log "building tofu $version from $module@v$version (nice -n 19, -p $jobs); this takes a long while"
(cd "$src" && CGO_ENABLED=0 nice -n 19 go build -mod=readonly -p "$jobs" -trimpath \
  -ldflags "-s -w -X '$module/version.dev=no'" -o "$bin/tofu.tmp" ./cmd/tofu) ||
  fail "go build ./cmd/tofu of $module@v$version failed (the compiler's errors are above)"
install_built
