#!/bin/sh
# frame_time.sh TILESCOPE [FRAMES] — the stage's frame time at 16² and at 4096², side by side:
# three rounds of `tilescope --frame-time FRAMES` at each size, alternating so that a change
# in the machine's load hits both, then the ratio of the medians. It prints figures; it
# judges nothing (the machine and its OpenGL decide them), and fails only when tilescope
# does or prints no figure.
set -eu
tilescope=$1
frames=${2:-100}

in_window() {
    if [ -n "${DISPLAY:-}" ]; then "$@"; else xvfb-run -a -s '-screen 0 1920x1080x24' "$@"; fi
}
median_of() { sed -n 's/.*median \([0-9.]*\) ms.*/\1/p'; }

small="" large=""
for round in 1 2 3; do
    line=$(in_window "$tilescope" --frame-time "$frames" --m 16 --n 16 --k 16 --tile 4)
    echo "$line" | sed "s/^/round $round: /"
    small="$small $(echo "$line" | median_of)"
    line=$(in_window "$tilescope" --frame-time "$frames" --m 4096 --n 4096 --k 4096 --tile 16)
    echo "$line" | sed "s/^/round $round: /"
    large="$large $(echo "$line" | median_of)"
done
echo "$small" | grep -q '[0-9]' && echo "$large" | grep -q '[0-9]' || { echo "frame_time.sh: no figures" >&2; exit 1; }

# The median of the three rounds' medians, for each size.
middle() { echo "$1" | tr ' ' '\n' | grep . | sort -n | sed -n 2p; }
s=$(middle "$small")
l=$(middle "$large")
awk -v s="$s" -v l="$l" 'BEGIN {
    printf "median frame time: 16² %.3f ms, 4096² %.3f ms; ratio 4096²/16² = %.2f (target: at most 1.2)\n", s, l, l / s
}'
