# Shared steps of scripts/install-tofu.sh and scripts/install-terraform.sh, which source this file: both
# build a CLI that answers `<name> version -json` from its Go module, fetched through the Go module proxy
# with the ordinary `go` client, into a cache folder outside the repository.
#
# The sourcing script sets, before calling anything here:
#   name     the executable and the log prefix's word (tofu, terraform)
#   product  what the messages call it (OpenTofu, Terraform)
#   module   the Go module (github.com/opentofu/opentofu)
#   version  without a leading "v"
#   bin      the folder the executable goes to
# Functions: log, fail, require_tools, done_if_built (exits 0 when the binary there answers `version`),
# fetch_module (sets work, a temporary folder removed at exit, and src, a writable copy of the module),
# install_built (moves $bin/$name.tmp into place, checks its version, prints $bin).

log() { printf 'install-%s: %s\n' "$name" "$*" >&2; }
fail() { log "$*"; exit 1; }

# go builds it; node reads the JSON of `go mod download` and of `<name> version -json`.
require_tools() {
  command -v go >/dev/null 2>&1 || fail "go is missing: the Go toolchain (go on PATH) is needed to build $product $version from $module"
  command -v node >/dev/null 2>&1 || fail "node is missing: it reads the JSON of go mod download"
}

# What the binary says it is: the "terraform_version" of `<name> version -json` (with an empty, throw-away
# CLI configuration: the machine's TF_CLI_CONFIG_FILE may name a file that does not exist).
answers() {
  [ -x "$bin/$name" ] || return 0
  local out
  out="$(TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1 "$bin/$name" version -json 2>/dev/null)" || return 0
  printf '%s' "$out" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{process.stdout.write(JSON.parse(s).terraform_version||"")}catch{}})'
}

done_if_built() {
  if [ "$(answers)" = "$version" ]; then
    log "$name $version is there already"
    printf '%s\n' "$bin"
    exit 0
  fi
}

# The module through the proxy (its exact error when it refuses), copied to a writable folder: the module
# cache's is read-only.
fetch_module() {
  start=$(date +%s)
  work="$(mktemp -d "${TMPDIR:-/tmp}/$name-build.XXXXXX")"
  trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
  local json dir err
  json="$(cd "$work" && go mod download -json "$module@v$version" 2>"$work/download.err" || true)"
  dir="$(printf '%s' "$json" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const j=JSON.parse(s);process.stdout.write(j.Error?"":j.Dir||"")}catch{}})')"
  if [ -z "$dir" ] || [ ! -f "$dir/go.mod" ]; then
    err="$(printf '%s' "$json" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{process.stdout.write(JSON.parse(s).Error||"")}catch{process.stdout.write(s)}})')"
    [ -n "$err" ] || err="$(cat "$work/download.err")"
    fail "the Go module proxy does not give $module@v$version: ${err:-go mod download -json failed with no error text}"
  fi
  src="$work/${module##*/}"
  cp -R "$dir" "$src"
  chmod -R u+w "$src"
  mkdir -p "$bin"
  rm -f "$bin/$name.tmp"
}

install_built() {
  mv -f "$bin/$name.tmp" "$bin/$name"
  local got
  got="$(answers)"
  [ "$got" = "$version" ] || fail "the built $bin/$name says its version is '${got:-nothing}', not $version"
  log "built $name $version in $(($(date +%s) - start)) s ($(du -h "$bin/$name" | cut -f1))"
  printf '%s\n' "$bin"
}
