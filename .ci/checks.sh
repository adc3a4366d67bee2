#!/usr/bin/env bash
# What `npm test` checks before jest (its pretest): the GraphQL codegen first (the type check reads
# its output and the format check sees it), then the type checks of the service and of the web
# app, the format check and the dependency rules side by side: about half the time they take one
# after another. Prints the output of each check that failed; exits non-zero when any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin
"$bin/tsx" src/graphql/codegen.ts || exit 1

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A pid
check() {
  local name=$1
  shift
  "$@" >"$out/$name" 2>&1 &
  pid[$name]=$!
}
check "type check" "$bin/tsc" -p tsconfig.json --noEmit
check "web app type check" "$bin/tsc" -p src/web/tsconfig.json
check "format check (npm run format fixes it)" "$bin/prettier" --check --log-level warn .
check "dependency rules" "$bin/depcruise" src --config .dependency-cruiser.js
rc=0
for name in "${!pid[@]}"; do
  if ! wait "${pid[$name]}"; then
    echo "pretest: the $name failed:" >&2
    cat "$out/$name" >&2
    rc=1
  fi
done
exit $rc
