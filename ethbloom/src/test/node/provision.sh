#!/usr/bin/env bash
# Provisions the real node for the ethbloom tests, from the build itself (exec-maven-plugin, phase
# generate-test-resources):
#  1. installs the pinned npm packages of package-lock.json (anvil 1.7.1, solc-js 0.8.28) into
#     <repo>/.build/node with build-tools/provision-npm.sh (--ignore-scripts: anvil's postinstall only looks for
#     the binary the platform package already holds);
#  2. compiles src/test/solidity/*.sol with solc-js into target/test-classes/contracts/;
#  3. writes target/test-classes/anvil.properties with the absolute path of the anvil binary.
# The anvil binary ships inside the platform package @foundry-rs/anvil-<os>-<arch> (bin/anvil); the
# package's own bin.mjs only spawns it, so the tests start the binary directly and can kill it by pid.
set -euo pipefail

module_dir=$1
repo_dir=$(cd "$module_dir/.." && pwd)
node_dir="$repo_dir/.build/node"
test_classes="$module_dir/target/test-classes"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-amd64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  Darwin-x86_64) platform=darwin-amd64 ;;
  *) echo "provision.sh: no anvil package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
anvil="$node_dir/node_modules/@foundry-rs/anvil-$platform/bin/anvil"

# `npm install` (not `npm ci`) because npm omits the other platforms' optional packages from the lock file.
"$repo_dir/build-tools/provision-npm.sh" "$module_dir" node install "@foundry-rs/anvil-$platform/bin/anvil"
"$anvil" --version | head -n 1

stamp="$test_classes/contracts/.sources.sha256"
sources_sum=$(cat "$module_dir"/src/test/solidity/*.sol "$module_dir/src/test/node/compile-contracts.cjs" | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sources_sum" ]; then
  node "$module_dir/src/test/node/compile-contracts.cjs" "$node_dir/node_modules/solc" \
    "$module_dir/src/test/solidity" "$test_classes/contracts"
  echo "$sources_sum" > "$stamp"
fi

mkdir -p "$test_classes"
printf 'anvil.binary=%s\nanvil.version=1.7.1\n' "$anvil" > "$test_classes/anvil.properties"
