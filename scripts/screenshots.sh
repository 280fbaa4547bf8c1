#!/usr/bin/env bash
# Regenerates the README's screenshots in assets/ with `collision-lab render` (1280x720, the
# size of a common projector). Needs an X server: runs itself under xvfb-run when DISPLAY is
# unset. Usage: scripts/screenshots.sh   (from anywhere; builds the release binary first)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x720x24" "$0" "$@"
fi
cargo build --release --quiet
bin=target/release/collision-lab
size=1280x720
shot() { # OUT SCENE ARGS...
  local out=$1 scene=$2
  shift 2
  "$bin" render "scenes/$scene" --out "assets/$out" --size "$size" "$@"
  echo "assets/$out"
}
shot welcome-gjk.png welcome.ron --step gjk:2
shot split-view.png welcome.ron --step gjk:2 --split
shot epa-expansion.png epa_expansion.ron --step epa:2
shot sat-step.png sat_overlapping.ron --step sat:5
shot sweep.png sweep_capsule_into_box.ron --step sweep:3
# 3D: an edge-edge SAT step with the Gauss map inset, and a face-face clip's reduction.
shot 3d-edge-edge-gauss.png 3d/edge_edge_crossed_ridges.ron
shot 3d-clip-reduction.png 3d/face_face_clip_eight.ron --step clip:8
# 3D A - B: GJK's tetrahedron around the origin, and an EPA expansion with its horizon, in
# the split view.
shot 3d-gjk-tetrahedron-split.png 3d/welcome.ron --step gjk:4 --split
shot 3d-epa-horizon-split.png 3d/epa_several_expansions.ron --step epa:3 --split
