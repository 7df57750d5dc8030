#!/usr/bin/env bash
# Installs a module's pinned test-time npm packages, from the build itself (an exec-maven-plugin execution at
# generate-test-resources), and tells its tests where they are. Shared by the modules whose tests run a Node.js peer
# or tool, so the install step is written once.
#
# Usage: provision-npm.sh MODULE_DIR BUILD_DIR NPM_COMMAND PROBE [PROPERTIES_FILE [KEY=VALUE...]]
#   MODULE_DIR       the module; its src/test/node/package.json and package-lock.json are installed
#   BUILD_DIR        the install goes into <repo>/.build/BUILD_DIR (git-ignored, survives `mvn clean`)
#   NPM_COMMAND      ci, or install where the lock file cannot hold every platform's optional package
#   PROBE            a path below node_modules that a finished install holds
#   PROPERTIES_FILE  if given, written into MODULE_DIR/target/test-classes: node.modules=<the node_modules dir>,
#                    then each KEY=VALUE given, one a line
# The install runs when PROBE is missing or the lock file changed since the last one. --ignore-scripts: no package
# runs code at install time; bcoin's packages (bcrypto, mrmr) then use their JavaScript backends (NODE_BACKEND=js).
set -euo pipefail

module_dir=$1
node_dir="$(cd "$module_dir/.." && pwd)/.build/$2"
npm_command=$3
probe="$node_dir/node_modules/$4"
shift 4
lock="$module_dir/src/test/node/package-lock.json"

if [ ! -e "$probe" ] || ! cmp -s "$lock" "$node_dir/.provisioned-lock.json"; then
  echo "provision-npm.sh: installing $module_dir/src/test/node/package.json into $node_dir"
  mkdir -p "$node_dir"
  cp "$module_dir/src/test/node/package.json" "$lock" "$node_dir/"
  (cd "$node_dir" && npm "$npm_command" --ignore-scripts --no-audit --no-fund --loglevel=error)
  cp "$lock" "$node_dir/.provisioned-lock.json"
fi
node --version

if [ $# -gt 0 ]; then
  test_classes="$module_dir/target/test-classes"
  mkdir -p "$test_classes"
  properties="$test_classes/$1"
  shift
  printf 'node.modules=%s\n' "$node_dir/node_modules" > "$properties"
  for line in "$@"; do
    printf '%s\n' "$line" >> "$properties"
  done
fi
