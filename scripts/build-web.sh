#!/usr/bin/env bash
# Builds collision-lab for the browser into web/dist/: index.html, the .wasm, macroquad's
# loader (mq_js_bundle.js, from the exact macroquad version built against), quad-url.js
# (egui-miniquad needs its functions) and the page's own functions (collision-lab.js).
# Serve web/dist/ as static files, e.g. `python3 -m http.server -d web/dist 8000`.
#
# The rustup toolchain has no wasm32 standard library here, so this uses Debian's rustc-web,
# which builds it from source (rust-web-src), and LLVM's wasm linker (lld-19). It installs
# them when missing (needs root and Debian's packages). Idempotent: run it again to rebuild.
#
# Environment: COLLISION_LAB_WEB_TARGET (the cargo target folder, default target/web).
set -euo pipefail
cd "$(dirname "$0")/.."

packages="rustc-web cargo-web rust-web-src lld-19"
missing=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "== installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# Debian's cargo and rustc, not the rustup proxies in ~/.cargo/bin.
export PATH="/usr/bin:$PATH"
# build-std is an unstable cargo feature; Debian's stable toolchain allows it with this.
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${COLLISION_LAB_WEB_TARGET:-target/web}"

echo "== $(cargo --version), $(rustc --version)"
start=$(date +%s)
cargo --config web/cargo-config.toml build --release --locked \
  --target wasm32-unknown-unknown --bin collision-lab
echo "== built in $(( $(date +%s) - start )) s"

# The loaders come from the crates' own sources, at the versions in Cargo.lock.
version_of() {
  awk -v name="$1" '$0 == "name = \"" name "\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}
registry_dir() {
  local crate="$1" version
  version="$(version_of "$crate")"
  local dir
  dir="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$crate-$version" 2>/dev/null | head -n 1)"
  if [ -z "$dir" ]; then
    echo "error: the sources of $crate $version are not in cargo's registry (run cargo fetch)" >&2
    exit 2
  fi
  echo "$dir"
}
macroquad="$(registry_dir macroquad)"
quad_url="$(registry_dir quad-url)"

dist=web/dist
rm -rf "$dist.tmp"
mkdir -p "$dist.tmp"
cp web/index.html web/collision-lab.js "$dist.tmp/"
cp "$macroquad/js/mq_js_bundle.js" "$dist.tmp/"
cp "$quad_url/js/quad-url.js" "$dist.tmp/"
cp "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/collision-lab.wasm" "$dist.tmp/"
rm -rf "$dist"
mv "$dist.tmp" "$dist"

wasm="$dist/collision-lab.wasm"
raw=$(stat -c %s "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
echo "== web/dist/ ready: collision-lab.wasm $raw bytes ($gz gzipped), macroquad $(version_of macroquad), quad-url $(version_of quad-url)"
echo "   serve it:  python3 -m http.server -d web/dist 8000   then open http://localhost:8000/"
