#!/usr/bin/env bash
# Provisions the independent BIP158 peer for the bip158 tests, from the build itself (exec-maven-plugin, phase
# generate-test-resources): installs the pinned npm packages of package-lock.json (bcoin's golomb 1.2.0 and its
# dependencies) into <repo>/.build/bip158-node when they are missing or the lock file changed (.build/ is
# git-ignored and survives `mvn clean`), then writes target/test-classes/golomb-peer.properties with the paths the
# tests need. --ignore-scripts: no native build of bcrypto; the peer runs its JavaScript backend.
set -euo pipefail

module_dir=$1
repo_dir=$(cd "$module_dir/.." && pwd)
node_dir="$repo_dir/.build/bip158-node"
test_classes="$module_dir/target/test-classes"
lock="$module_dir/src/test/node/package-lock.json"

if [ ! -f "$node_dir/node_modules/golomb/package.json" ] || ! cmp -s "$lock" "$node_dir/.provisioned-lock.json"; then
  echo "provision.sh: installing golomb into $node_dir"
  mkdir -p "$node_dir"
  cp "$module_dir/src/test/node/package.json" "$lock" "$node_dir/"
  (cd "$node_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  cp "$lock" "$node_dir/.provisioned-lock.json"
fi
node --version

mkdir -p "$test_classes"
printf 'node.modules=%s\npeer.script=%s\ngolomb.version=1.2.0\n' "$node_dir/node_modules" \
  "$module_dir/src/test/node/golomb-peer.cjs" > "$test_classes/golomb-peer.properties"
