#!/usr/bin/env bash
# Runs a command in this project under another Node.js line than the machine's, e.g.
#   scripts/with-node.sh 26 npx vitest run src/app.test.ts
#   scripts/with-node.sh 22 node --version
#
# Node comes from the npm registry (the official Linux build in the node-linux-<arch> package, which also
# carries the C headers native modules compile against), so nothing but the registry is needed. The command
# runs in a copy of the working tree with a node_modules of its own, installed by `npm ci` under that Node and
# so with better-sqlite3 compiled for it: the machine Node's node_modules is never touched.
#
# Kept under WITH_NODE_CACHE (default ~/.cache/storefront-with-node), one folder per Node release and one
# project copy per line; a copy's `npm ci` is redone only when package-lock.json or the Node release changes.
# The copy is synced from the working tree on every run (node_modules, dist, .git and ignored output left out).
set -euo pipefail

if [ $# -lt 2 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 NODE_MAJOR COMMAND [ARG...]   (e.g. $0 26 npx vitest run src/app.test.ts)" >&2
  exit 2
fi
major=$1
shift

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${WITH_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/storefront-with-node}"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "with-node: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
package="node-linux-$arch"
mkdir -p "$cache"

# The newest release of the line. `npm view` lists a range's versions in no fixed order: sort them here.
version=$(npm view "$package@>=$major <$((major + 1))" version --json | node -e '
  const out = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const list = (Array.isArray(out) ? out : [out]).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const key = (v) => v.split(".").map(Number);
  list.sort((a, b) => { const [x, y] = [key(a), key(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
  if (list.length) console.log(list[list.length - 1]);
')
if [ -z "$version" ]; then
  echo "with-node: the registry has no $package release for Node $major" >&2
  exit 1
fi

node_dir="$cache/node-$version"
if [ ! -x "$node_dir/bin/node" ]; then
  echo "== with-node: fetching $package@$version from the npm registry" >&2
  tmp=$(mktemp -d "$cache/fetch.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "$package@$version" >/dev/null)
  mkdir "$tmp/node"
  tar -xzf "$tmp"/"$package"-*.tgz -C "$tmp/node" --strip-components=1
  rm -rf "$node_dir"
  mv "$tmp/node" "$node_dir"
  rm -rf "$tmp"
  trap - EXIT
fi

project="$cache/project-node$major"
if ! command -v rsync >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== with-node: installing Debian's rsync to copy the tree" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends rsync >&2 ||
      { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends rsync >&2; }
  else
    echo "with-node: needs rsync (Debian/Ubuntu: sudo apt-get install rsync)" >&2
    exit 1
  fi
fi
mkdir -p "$project"
rsync -a --delete \
  --exclude=/node_modules --exclude=/dist --exclude=/.git --exclude=/test-results --exclude=/playwright-report \
  --exclude=/bench-results --exclude='*.log' --exclude=/.env --include=/data/demo/ --exclude='/data/*' \
  "$root/" "$project/"

export PATH="$node_dir/bin:$PATH"
# node-gyp builds against these headers instead of downloading Node's source tarball.
export npm_config_nodedir="$node_dir"

stamp="$project/node_modules/.with-node-stamp"
want="$version $(sha256sum "$project/package-lock.json" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "== with-node: npm ci under Node $version (native modules compiled against its headers)" >&2
  started=$SECONDS
  (cd "$project" && npm ci --no-audit --no-fund)
  echo "$want" >"$stamp"
  echo "== with-node: npm ci took $((SECONDS - started)) s" >&2
fi

cd "$project"
echo "== with-node: node $(node --version) in $project: $*" >&2
exec "$@"
