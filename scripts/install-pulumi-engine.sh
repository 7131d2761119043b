#!/usr/bin/env bash
# Builds the real Pulumi engine from Pulumi's Go modules, at the version of the @pulumi/pulumi in
# package-lock.json: the `pulumi` CLI and the language hosts pulumi-language-{nodejs,python,go,yaml},
# into ${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/engine/<version>/bin (outside the repository).
# Does nothing for a binary that is there already at the right version. Prints that folder as its last
# line, so other tools can find the engine:
#
#   bin="$(bash scripts/install-pulumi-engine.sh | tail -n 1)"
#
# Every module comes through the Go module proxy with the ordinary `go` client (`go mod download -json`);
# nothing is downloaded by hand. The module cache is read-only, so each build happens in a writable copy
# laid out as the pulumi/pulumi repository is (pkg/ and sdk/ as siblings, the language hosts inside
# sdk/), which satisfies the relative `replace` lines of pkg/go.mod and of the language hosts' go.mod
# (`go install .../pkg/v3/cmd/pulumi@VERSION` refuses a module with replace lines).
#
# A language host whose module the proxy refuses is not built (there is no stand-in): the exact error is
# printed on stderr and kept in <version>/unavailable/<host>, where the tests read why they cannot run.
# The script fails when pkg/sdk cannot be had or a build fails (a compile error is never papered over).
#
# Beside them it puts Pulumi's pulumi-resource-pulumi-nodejs (and its .cmd), the provider plugin that runs
# a Node.js program's dynamic resources, copied unedited from the sdk/v3 module download (nodejs/dist/):
# the engine finds it in its own folder, with no "using ... from $PATH" warning. The script resolves
# @pulumi/pulumi from its working directory, so an Automation API inline program runs from a folder where
# @pulumi/pulumi is installed.
#
# Environment: PULUMI_YAML_VERSION (default v1.25.0, the newest pulumi-yaml the proxy serves here);
# ENGINE_JOBS (go build -p, default 2). The build runs under `nice`.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(node -p 'require(process.argv[1]).packages["node_modules/@pulumi/pulumi"].version' "$root/package-lock.json")"
yaml_version="${PULUMI_YAML_VERSION:-v1.25.0}"
java_version="${PULUMI_JAVA_VERSION:-v1.12.0}"
engine="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/engine/$version"
bin="$engine/bin"
unavailable="$engine/unavailable"
jobs="${ENGINE_JOBS:-2}"
mkdir -p "$bin" "$unavailable"

log() { printf 'install-pulumi-engine: %s\n' "$*" >&2; }

# The version a binary in bin/ was built at: its stamp file, written after a successful build (Go leaves
# -ldflags out of the build information of a -trimpath build); for pulumi, also what it says it is.
stamped() { # <name>
  [ -x "$bin/$1" ] && [ -f "$bin/.$1.version" ] || return 0
  if [ "$1" = pulumi ] && [ "$(PULUMI_SKIP_UPDATE_CHECK=true "$bin/pulumi" version 2>/dev/null)" != "$(cat "$bin/.pulumi.version")" ]; then return 0; fi
  cat "$bin/.$1.version"
}

# `go mod download -json MODULE@VERSION`: prints the module's folder in the module cache, or returns 1
# after printing the proxy's exact error on stderr (and saving it under unavailable/<name>).
download() { # <name> <module@version>
  local json dir err
  json="$(cd "$work" && go mod download -json "$2" 2>/dev/null || true)"
  dir="$(printf '%s' "$json" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const j=JSON.parse(s);process.stdout.write(j.Error?"":j.Dir||"")}catch{}})')"
  if [ -n "$dir" ] && [ -d "$dir" ]; then
    rm -f "$unavailable/$1"
    printf '%s\n' "$dir"
    return 0
  fi
  err="$(printf '%s' "$json" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{process.stdout.write(JSON.parse(s).Error||"")}catch{process.stdout.write(s)}})')"
  [ -n "$err" ] || err="go mod download -json $2 failed with no error text"
  printf '%s\n' "$err" >"$unavailable/$1"
  log "$1 cannot be built here: $err"
  return 1
}

# A writable copy of a module folder (the module cache is read-only).
copy() { # <from> <to>
  rm -rf "$2"
  mkdir -p "$(dirname "$2")"
  cp -R "$1" "$2"
  chmod -R u+w "$2"
}

build() { # <dir> <name> <version> <ldflags> <package>
  local t=$(date +%s)
  log "building $2 $3 (nice, -p $jobs)"
  rm -f "$bin/.$2.version"
  (cd "$1" && nice -n 10 go build -mod=mod -p "$jobs" -trimpath -ldflags "-s -w $4" -o "$bin/$2.tmp" "$5")
  mv -f "$bin/$2.tmp" "$bin/$2"
  printf '%s\n' "$3" >"$bin/.$2.version"
  log "built $2 in $(($(date +%s) - t)) s"
}

cli_x="github.com/pulumi/pulumi/sdk/v3/go/common/version"
yaml_x="github.com/pulumi/pulumi-yaml/pkg/version"
want_hosts=(pulumi-language-nodejs pulumi-language-python pulumi-language-go)

dynamic_plugin=pulumi-resource-pulumi-nodejs
need=0
[ "$(stamped pulumi)" = "v$version" ] || need=1
[ "$(stamped "$dynamic_plugin")" = "v$version" ] || need=1
[ "$(stamped pulumi-language-yaml)" = "$yaml_version" ] || need=1
[ "$(stamped pulumi-converter-yaml)" = "$yaml_version" ] || need=1
[ "$(stamped pulumi-language-java)" = "$java_version" ] || need=1
for f in pulumi-language-python-exec pulumi-resource-pulumi-python; do
  [ "$(stamped "$f")" = "v$version" ] || need=1
done
for host in "${want_hosts[@]}"; do
  [ "$(stamped "$host")" = "v$version" ] || need=1
done

if [ "$need" -eq 0 ]; then
  log "pulumi v$version and its language hosts are there already"
  printf '%s\n' "$bin"
  exit 0
fi

start=$(date +%s)
work="$(mktemp -d "${TMPDIR:-/tmp}/pulumi-engine-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
src="$work/pulumi" # laid out as the pulumi/pulumi repository

pkg_dir="$(download pulumi "github.com/pulumi/pulumi/pkg/v3@v$version")" || exit 1
sdk_dir="$(download pulumi-sdk "github.com/pulumi/pulumi/sdk/v3@v$version")" || exit 1
# pkg/ and sdk/ are copied only when something is built from them.
laid_out=0
lay_out() {
  [ "$laid_out" -eq 1 ] && return 0
  copy "$pkg_dir" "$src/pkg"
  copy "$sdk_dir" "$src/sdk"
  laid_out=1
}

# The dynamic-resource provider plugin is a script in the sdk/v3 download: copied as it is, no build.
if [ "$(stamped "$dynamic_plugin")" != "v$version" ]; then
  rm -f "$bin/.$dynamic_plugin.version"
  for f in "$dynamic_plugin" "$dynamic_plugin.cmd"; do
    cp "$sdk_dir/nodejs/dist/$f" "$bin/$f.tmp"
    chmod 755 "$bin/$f.tmp"
    mv -f "$bin/$f.tmp" "$bin/$f"
  done
  printf '%s\n' "v$version" >"$bin/.$dynamic_plugin.version"
  log "installed $dynamic_plugin v$version from the sdk/v3 module"
fi

if [ "$(stamped pulumi)" != "v$version" ]; then
  lay_out
  build "$src/pkg" pulumi "v$version" "-X $cli_x.Version=v$version" ./cmd/pulumi
fi

# The language hosts of pulumi/pulumi are modules of their own inside sdk/ (so the sdk/v3 download leaves
# them out), untagged: the proxy would serve them at the commit of the pkg/v3.248.0 tag as a
# pseudo-version; the commit is the Origin.Hash of the pkg download.
commit="$(cd "$work" && go mod download -json "github.com/pulumi/pulumi/pkg/v3@v$version" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write((JSON.parse(s).Origin||{}).Hash||""))')"
declare -A host_module=(
  [pulumi-language-nodejs]="github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
  [pulumi-language-python]="github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3"
  [pulumi-language-go]="github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3"
)
declare -A host_dir=(
  [pulumi-language-nodejs]="sdk/nodejs/cmd/pulumi-language-nodejs"
  [pulumi-language-python]="sdk/python/cmd/pulumi-language-python"
  [pulumi-language-go]="sdk/go/pulumi-language-go"
)
# Where the proxy refuses a host (it does here: 403 for these pseudo-versions), its source comes from the
# folder beside the clone that holds the three hosts exactly as pulumi/pulumi has them at that commit
# (../shared/third_party/pulumi-language-hosts-v<version>/, or $PULUMI_LANGUAGE_HOSTS_DIR). With neither,
# the script fails and names the host, the proxy's error and the folder it looked for.
third_party="${PULUMI_LANGUAGE_HOSTS_DIR:-$(cd "$root/.." && pwd)/shared/third_party/pulumi-language-hosts-v$version}"
failed_hosts=()
for host in "${want_hosts[@]}"; do
  [ "$(stamped "$host")" = "v$version" ] && continue
  ref="${commit:-v$version}"
  if dir="$(download "$host" "${host_module[$host]}@$ref" 2>/dev/null)"; then
    lay_out
    copy "$dir" "$src/${host_dir[$host]}"
    build "$src/${host_dir[$host]}" "$host" "v$version" "-X $cli_x.Version=v$version" .
  elif [ -f "$third_party/${host_dir[$host]}/go.mod" ]; then
    log "$host: the Go module proxy refuses ${host_module[$host]}@$ref; building it from $third_party/${host_dir[$host]}"
    lay_out
    copy "$third_party/${host_dir[$host]}" "$src/${host_dir[$host]}"
    build "$src/${host_dir[$host]}" "$host" "v$version" "-X $cli_x.Version=v$version" .
    rm -f "$unavailable/$host"
  else
    log "$host cannot be built: the Go module proxy refuses ${host_module[$host]}@$ref ($(cat "$unavailable/$host" 2>/dev/null || echo 'no error text')), and $third_party/${host_dir[$host]} has no go.mod"
    failed_hosts+=("$host")
  fi
done

# What a Pulumi install carries beside the Python host, copied unedited from the sdk/v3 module download:
# the executor the host runs (without it every Python program and `gen-sdk --language python` fail with
# "missing executor") and the provider plugin of Python dynamic resources.
for f in pulumi-language-python-exec:python/cmd/pulumi-language-python-exec pulumi-resource-pulumi-python:python/dist/pulumi-resource-pulumi-python; do
  name="${f%%:*}"
  [ "$(stamped "$name")" = "v$version" ] && continue
  rm -f "$bin/.$name.version"
  cp "$sdk_dir/${f#*:}" "$bin/$name.tmp"
  chmod 755 "$bin/$name.tmp"
  mv -f "$bin/$name.tmp" "$bin/$name"
  printf '%s\n' "v$version" >"$bin/.$name.version"
  log "installed $name v$version from the sdk/v3 module"
done

# pulumi-language-yaml lives in github.com/pulumi/pulumi-yaml, a module without replace lines: `go install
# MODULE/cmd/pulumi-language-yaml@VERSION` builds it with the pkg and sdk its own go.mod names, as Pulumi's
# releases bundle it (v1.25.0 does not compile against pkg v3.248.0: NewPluginLoader and NewContextWithRoot
# changed). It speaks to the engine over gRPC only.
install_tool() { # <name> <module@version> <package> <version> <ldflags>
  [ "$(stamped "$1")" = "$4" ] && return 0
  download "$1" "$2" >/dev/null || { failed_hosts+=("$1"); return 0; }
  local t=$(date +%s)
  log "building $1 $4 (nice, -p $jobs)"
  rm -f "$bin/.$1.version"
  (cd "$work" && GOBIN="$work/gobin" nice -n 10 go install -p "$jobs" -trimpath -ldflags "-s -w $5" "$3@$4")
  mv -f "$work/gobin/$1" "$bin/$1"
  printf '%s\n' "$4" >"$bin/.$1.version"
  log "built $1 in $(($(date +%s) - t)) s"
}
install_tool pulumi-language-yaml "github.com/pulumi/pulumi-yaml@$yaml_version" \
  github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml "$yaml_version" "-X $yaml_x.Version=$yaml_version"
# `pulumi convert --from yaml` runs this converter plugin (without it: "no converter plugin
# 'pulumi-converter-yaml'"); it is built at the YAML host's version.
install_tool pulumi-converter-yaml "github.com/pulumi/pulumi-yaml@$yaml_version" \
  github.com/pulumi/pulumi-yaml/cmd/pulumi-converter-yaml "$yaml_version" "-X $yaml_x.Version=$yaml_version"

# pulumi-language-java lives in github.com/pulumi/pulumi-java/pkg, at the version of the com.pulumi:pulumi
# Java SDK that sdks/java uses. Its go.mod has replace lines, which `go install` refuses: it is built in a
# writable copy of the module download.
if [ "$(stamped pulumi-language-java)" != "$java_version" ]; then
  if java_dir="$(download pulumi-language-java "github.com/pulumi/pulumi-java/pkg@$java_version")"; then
    copy "$java_dir" "$work/pulumi-java-pkg"
    build "$work/pulumi-java-pkg" pulumi-language-java "$java_version" \
      "-X github.com/pulumi/pulumi-java/pkg/version.Version=$java_version" ./cmd/pulumi-language-java
  else
    failed_hosts+=(pulumi-language-java)
  fi
fi

log "done in $(($(date +%s) - start)) s"
if [ "${#failed_hosts[@]}" -gt 0 ]; then
  log "failed: not built: ${failed_hosts[*]} (the reasons are above and in $unavailable)"
  exit 1
fi
printf '%s\n' "$bin"
