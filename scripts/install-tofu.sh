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

version="${TOFU_VERSION:-1.12.6}"
version="${version#v}"
module="github.com/opentofu/opentofu"
tofu_dir="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/tofu/$version"
bin="$tofu_dir/bin"
jobs="${TOFU_JOBS:-2}"

log() { printf 'install-tofu: %s\n' "$*" >&2; }
fail() { log "$*"; exit 1; }

command -v go >/dev/null 2>&1 || fail "go is missing: the Go toolchain (go on PATH) is needed to build OpenTofu $version from $module"
command -v node >/dev/null 2>&1 || fail "node is missing: it reads the JSON of go mod download"

# What the binary says it is: the "terraform_version" of `tofu version -json` (with an empty, throw-away CLI
# configuration: the machine's TF_CLI_CONFIG_FILE may name a file that does not exist).
answers() {
  [ -x "$bin/tofu" ] || return 0
  local out
  out="$(TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1 "$bin/tofu" version -json 2>/dev/null)" || return 0
  printf '%s' "$out" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{process.stdout.write(JSON.parse(s).terraform_version||"")}catch{}})'
}

if [ "$(answers)" = "$version" ]; then
  log "tofu $version is there already"
  printf '%s\n' "$bin"
  exit 0
fi

start=$(date +%s)
work="$(mktemp -d "${TMPDIR:-/tmp}/tofu-build.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

json="$(cd "$work" && go mod download -json "$module@v$version" 2>"$work/download.err" || true)"
dir="$(printf '%s' "$json" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const j=JSON.parse(s);process.stdout.write(j.Error?"":j.Dir||"")}catch{}})')"
if [ -z "$dir" ] || [ ! -f "$dir/go.mod" ]; then
  err="$(printf '%s' "$json" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{process.stdout.write(JSON.parse(s).Error||"")}catch{process.stdout.write(s)}})')"
  [ -n "$err" ] || err="$(cat "$work/download.err")"
  fail "the Go module proxy does not give $module@v$version: ${err:-go mod download -json failed with no error text}"
fi

# The module cache is read-only: build in a writable copy.
src="$work/opentofu"
cp -R "$dir" "$src"
chmod -R u+w "$src"

mkdir -p "$bin"
rm -f "$bin/tofu.tmp"
log "building tofu $version from $module@v$version (nice -n 19, -p $jobs); this takes a long while"
(cd "$src" && CGO_ENABLED=0 nice -n 19 go build -mod=readonly -p "$jobs" -trimpath \
  -ldflags "-s -w -X '$module/version.dev=no'" -o "$bin/tofu.tmp" ./cmd/tofu) ||
  fail "go build ./cmd/tofu of $module@v$version failed (the compiler's errors are above)"
mv -f "$bin/tofu.tmp" "$bin/tofu"

got="$(answers)"
[ "$got" = "$version" ] || fail "the built $bin/tofu says its version is '${got:-nothing}', not $version"
log "built tofu $version in $(($(date +%s) - start)) s ($(du -h "$bin/tofu" | cut -f1))"
printf '%s\n' "$bin"
