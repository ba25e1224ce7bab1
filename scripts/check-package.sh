#!/usr/bin/env bash
# The package as a user installs it: `npm run pack` (scripts/pack.mjs), then `npm install -g` of the tarball into a temporary prefix,
# then the installed mq against its own sandbox, on Node 22, 24 and 26 (from the npm package `node`, so a machine
# with npm needs nothing else) and on this Node (20.18+ still runs mq). Fails on an install warning, on a dependency
# the tarball drags in, or on a command that does not answer as it should. First, the README's install steps as a
# user runs them: in a fresh clone of what is committed, into a fresh prefix, and mq must still run once the clone
# is deleted. Last, the example project (examples/queue-bot) as a user sets it up, with the tarball as its mq: its
# tests (vitest through `import`, node:test through `require`) and the rehearsal its workflow runs, and its tests
# again on Node 22, 24 and 26.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

readme_install() {
  local steps clone=$work/clone prefix=$work/prefix-readme
  steps=$(awk '/^## Install/ { install = 1 } install && /^```sh/ { block = 1; next } block && /^```/ { exit } block' README.md)
  git clone -q "$PWD" "$clone"
  if ! (cd "$clone" && npm_config_prefix=$prefix npm_config_fund=false npm_config_audit=false bash -euo pipefail -c "$steps") >"$work/readme.log" 2>&1; then
    echo "the README's install steps failed:" >&2; cat "$work/readme.log" >&2; return 1
  fi
  if grep -qi 'warn' "$work/readme.log"; then echo "the README's install steps warned:" >&2; cat "$work/readme.log" >&2; return 1; fi
  rm -rf "$clone"
  echo "README install (npm $(npm --version), node $(node --version)): mq $("$prefix/bin/mq" --version) runs with its clone deleted"
  "$prefix/bin/mq" help exit-codes | grep -q 'usage'
}
readme_install

tarball=$(basename "$(node scripts/pack.mjs "$work")")
size=$(wc -c <"$work/$tarball")
echo "packed $tarball: $size bytes"

check_on() {
  local label=$1; shift
  local node=("$@")
  local prefix="$work/prefix-$label"
  # The npm that comes with this Node installs; the Node under test runs the installed program.
  npm install -g --prefix "$prefix" --no-audit --no-fund "$work/$tarball" >"$work/install-$label.log" 2>&1
  if grep -v 'Unknown user config' "$work/install-$label.log" | grep -qi 'warn'; then
    echo "install on $label warned:" >&2; cat "$work/install-$label.log" >&2; return 1
  fi
  local installed=("$prefix"/lib/node_modules/mq/node_modules/*)
  if [ -e "${installed[0]}" ]; then echo "the tarball installed dependencies: ${installed[*]}" >&2; return 1; fi
  local mq=("${node[@]}" "$prefix/lib/node_modules/mq/bin/mq.js")
  echo "$label: node $("${node[@]}" --version), mq $("${mq[@]}" --version)"
  "${mq[@]}" sandbox --port 0 --clock manual >"$work/sandbox-$label.out" 2>/dev/null &
  local sandbox=$!
  for _ in $(seq 100); do [ -s "$work/sandbox-$label.out" ] && break; sleep 0.1; done
  local url; url=$(head -n 1 "$work/sandbox-$label.out")
  export MQ_API_URL=$url MQ_TOKEN=package-check MQ_REPO=acme/package
  "${mq[@]}" queue create >/dev/null
  "${mq[@]}" submit 1 >/dev/null
  "${mq[@]}" status 1 --json | grep -q '"prNumber": 1'
  "${mq[@]}" queue get | grep -q '#1'
  "${mq[@]}" status --help | grep -q "mq help global-flags"
  kill "$sandbox"; wait "$sandbox" 2>/dev/null || true
  echo "$label: installed mq created a queue, submitted and read a PR"
}

check_on "node$(node -p 'process.versions.node.split(".")[0]')" node
other_nodes=()
for major in 22 24 26; do
  npm exec --yes --package="node@$major" -- node --version >/dev/null 2>&1
  node_bin=$(cd "$work" && npm exec --yes --package="node@$major" -- node -p 'process.execPath' 2>/dev/null)
  check_on "node$major" "$node_bin"
  other_nodes+=("$node_bin")
done

# A copy of examples/queue-bot outside the checkout, the tarball as its vendor/mq.tgz, installed with this npm
# (vitest from npm's cache, as the checkout's own); then what its workflow's test job runs after the install.
example_project() {
  local dir=$work/queue-bot
  cp -r examples/queue-bot "$dir"
  rm -rf "$dir/node_modules" "$dir/package-lock.json"
  mkdir -p "$dir/vendor" && cp "$work/$tarball" "$dir/vendor/mq.tgz"
  if ! (cd "$dir" && npm install --prefer-offline --no-audit --no-fund) >"$work/example-install.log" 2>&1 ||
    grep -v 'Unknown user config' "$work/example-install.log" | grep -qi 'warn'; then
    echo "the example project's install failed or warned:" >&2; cat "$work/example-install.log" >&2; return 1
  fi
  if ! (cd "$dir" && npm test && npm run rehearse) >"$work/example.log" 2>&1; then
    echo "the example project's tests failed:" >&2; cat "$work/example.log" >&2; return 1
  fi
  echo "examples/queue-bot: installed $tarball; npm test (vitest by import, node:test by require) and npm run rehearse pass"
  # The library runs in its users' test processes: its tests again under each Node the package targets, that
  # Node first on PATH (npm runs the scripts' `node` and vitest's from there).
  local node_bin version
  for node_bin in "${other_nodes[@]}"; do
    version=$("$node_bin" --version)
    if ! (cd "$dir" && PATH="$(dirname "$node_bin"):$PATH" && export PATH && [ "$(node --version)" = "$version" ] && npm test) >"$work/example-$version.log" 2>&1; then
      echo "the example project's tests failed on node $version:" >&2; cat "$work/example-$version.log" >&2; return 1
    fi
    echo "examples/queue-bot: npm test passes on node $version"
  done
}
example_project
