#!/bin/bash
# Run the three reference experiments small enough for a laptop, write their report.html, and
# take a screenshot of each with headless Chromium (the pictures in README.md):
#   quickstart     jobs/quickstart.yaml as it is
#   usb-vs-sata    jobs/usb-vs-sata.yaml, 1 MB and 2 MB copies, at most 40 runs (5 low and 5
#                  high trimmed), the buffer study with 1 MB copies, 20 runs
#   discwr2        jobs/discwr2.yaml, 64 MB per run, with the flash drive's records (10 MB
#                  and 20 MB) on the synthetic backend: 111 ms a record until 1.2 GB are
#                  written (180 MB/s at 20 MB), then 500 ms (40 MB/s)
# Usage: scripts/report-screenshots.sh [RUNS_DIR [IMG_DIR]]
#   RUNS_DIR  where the result folders go (default: a new temporary folder, removed after)
#   IMG_DIR   where report-<experiment>.png go (default: docs/img)
# IOTRIAL names the binary (default ./iotrial); CHROMIUM the browser (default chromium).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
iotrial=${IOTRIAL:-$here/iotrial}
chromium=${CHROMIUM:-chromium}
runs=${1:-}
img=${2:-$here/docs/img}
keep=1
if [ -z "$runs" ]; then
	runs=$(mktemp -d)
	keep=0
fi
mkdir -p "$runs" "$img"
export TMPDIR=$runs

# The flags that work as root in a container, and a new empty profile for each start.
chromium_run() {
	local profile
	profile=$(mktemp -d "$runs/chromium.XXXXXX")
	"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--hide-scrollbars --user-data-dir="$profile" "$@"
	rm -rf "$profile"
}

discwr2_sim=(--set records.device=flash --set records.file_size=6GB
	--set records.backend=synthetic --set records.sim_mean=111ms
	--set records.sim_cache_size=1.2GB --set records.sim_after_mean=500ms)

"$iotrial" run "$here/jobs/quickstart.yaml" -o "$runs/quickstart" -f json,html -q
SMALL_SIZE=1MB LARGE_SIZE=2MB BUFFER_SIZE_FILE=1MB "$iotrial" run "$here/jobs/usb-vs-sata.yaml" \
	--set copy.replication.target.max=40 --set buffer.replication.runs=20 \
	-o "$runs/usb-vs-sata" -f json,html -q
TOTAL_SIZE=64MB LOAD_SIZE=32MB "$iotrial" run "$here/jobs/discwr2.yaml" "${discwr2_sim[@]}" -o "$runs/discwr2" -f json,html -q

# The top of each page down to its first figures: the header, the summary and what matters.
for exp in quickstart:1000,1500 usb-vs-sata:1000,2900 discwr2:1000,2250; do
	name=${exp%%:*}
	chromium_run --window-size="${exp#*:}" --screenshot="$img/report-$name.png" \
		"file://$runs/$name/report.html" >/dev/null 2>&1
	test -s "$img/report-$name.png"
	echo "report-screenshots: $img/report-$name.png"
done
if [ "$keep" = 0 ]; then
	rm -rf "$runs"
fi
