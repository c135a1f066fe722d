#!/bin/sh
# Write the man pages from the docs they repeat, so that they cannot drift apart:
#   iotrial.1          the synopsis and the body of docs/cli.md
#   iotrial-jobfile.5  the body of docs/jobfile.md, then the key table (iotrial keys --json)
# Usage: scripts/gen-man.sh IOTRIAL OUTDIR. Needs lowdown (Debian's package, a small
# Markdown translator) and jq. The docs' links become plain text (a man page cannot follow
# them), their tables become lists (tbl cannot fit long cells into 80 columns), and their
# headings move up a level (the page's title is the man page's own).
set -e
IOTRIAL=$1
OUT=$2
SRC=$(cd "$(dirname "$0")/.." && pwd)
VERSION=$("$IOTRIAL" --version)
VERSION=$(echo "$VERSION" | cut -d' ' -f2)
KEYS=$("$IOTRIAL" keys --json)
for tool in lowdown jq; do
	command -v $tool >/dev/null 2>&1 || {
		echo "gen-man: $tool is missing (scripts/install-deps.sh installs it)" >&2
		exit 1
	}
done

# A docs page's body as man-friendly Markdown: from the line after its first code block
# when $2 is "after-synopsis", else from its second line.
body() {
	awk -v from="$2" '
		NR == 1 && /^# / { next }
		from == "after-synopsis" && !done {
			if (/^    /) { inblock = 1; next }
			if (inblock) done = 1
			else next
		}
		/^\|[ -]*---/ { next }
		/^\|/ {
			n = split($0, c, /[ \t]*\|[ \t]*/)
			if (!hdr) { for (i = 2; i < n; i++) h[i] = c[i]; hdr = 1; next }
			line = "- " c[2] ":"
			for (i = 3; i < n; i++) line = line (i > 3 ? ";" : "") " " (h[i] != "" ? h[i] " " : "") c[i]
			print line
			next
		}
		{ hdr = 0 }
		/^## / { sub(/^## /, "# ") }
		/^### / { sub(/^### /, "## ") }
		/^#### / { sub(/^#### /, "### ") }
		{ print }
	' "$SRC/docs/$1.md" | sed -E 's/!?\[([^]]*)\]\([^)]*\)/\1/g'
}

render() { # NAME SECTION: stdin (Markdown) to $OUT/NAME.SECTION, whole or not at all
	lowdown -s -Tman --out-no-smarty --parse-no-super --parse-no-intraemph --nroff-nolinks -M "title=$1" -M "section=$2" -M "source=iotrial $VERSION" \
		-M "date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d)" >"$OUT/.$1.$2.tmp"
	mv "$OUT/.$1.$2.tmp" "$OUT/$1.$2"
}

mkdir -p "$OUT"
{
	printf '# NAME\n\niotrial - a storage workload engine: replicated experiments from YAML job files, with statistics\n\n'
	printf '# SYNOPSIS\n\n'
	awk '/^    iotrial/ { print; seen = 1; next } seen { exit }' "$SRC/docs/cli.md"
	printf '\n# DESCRIPTION\n\n'
	printf 'iotrial runs the experiments that job files describe (see **iotrial-jobfile**(5)), as replicated trials on pluggable I/O backends, and reports text, CSV, JSON and HTML with confidence intervals and comparisons. This page is docs/cli.md of the source tree; the other docs are installed in /usr/share/doc/iotrial (or under the install prefix).\n\n'
	body cli after-synopsis
	printf '\n# SEE ALSO\n\n**iotrial-jobfile**(5), **fio**(1)\n'
} | render iotrial 1

{
	printf '# NAME\n\niotrial-jobfile - the iotrial job file: an experiment in YAML\n\n'
	printf '# DESCRIPTION\n\n'
	body jobfile
	printf '\n# KEY TABLE\n\nEvery job key, as **iotrial keys** prints it: type, default, values, meaning.\n\n'
	echo "$KEYS" | jq -r '.[] |
		"- **\(.name)** (\(.type); default \(.default // "none")" +
		(if .values then "; one of \(.values | join(", "))" else "" end) + "): \(.help)\n"'
	printf '\n# SEE ALSO\n\n**iotrial**(1)\n'
} | render iotrial-jobfile 5
