#!/bin/sh
# make format-check: every C file and header given is as clang-format (and .clang-format)
# would write it. Lists each file that differs, with how many places, and exits 1; exits 2
# when clang-format is missing. CLANG_FORMAT names the program (default clang-format; the
# project's formatting is the one of Debian 12's clang-format 14).
# Usage: scripts/check-format.sh FILE...
CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
	echo "format-check: '$CLANG_FORMAT' not found: apt-get install clang-format (or scripts/install-deps.sh lint)" >&2
	exit 2
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
bad=0
for f in "$@"; do
	if ! "$CLANG_FORMAT" --dry-run -Werror "$f" >/dev/null 2>"$out"; then
		n=$(grep -c 'code should be clang-formatted' "$out")
		if [ "$n" -eq 0 ]; then
			# Not a formatting difference: clang-format itself failed; show why.
			cat "$out" >&2
			n=1
		fi
		echo "format-check: $f: $n place(s) differ"
		bad=$((bad + 1))
	fi
done
if [ "$bad" -gt 0 ]; then
	echo "format-check: $bad of $# files differ from .clang-format ($("$CLANG_FORMAT" --version | sed 's/.*version //')); 'make format' rewrites them, '$CLANG_FORMAT --dry-run FILE' shows where"
	exit 1
fi
echo "format-check: $# files as .clang-format writes them"
