#!/bin/sh
# Fill the option tables of docs/backends.md from the backends' own declarations: every block
# between "<!-- options: NAME -->" and "<!-- end of options -->" becomes the table that
# `iotrial keys NAME` prints, one row per option. A backend this build left out keeps the
# table it had. tests/t/t0024-backend-options.sh runs this on a copy and fails when the
# result differs from the file.
# Usage: scripts/backend-options-md.sh [FILE]   (default docs/backends.md; IOTRIAL=binary)
cd "$(dirname "$0")/.." || exit 2
file=${1:-docs/backends.md}
iotrial=${IOTRIAL:-./iotrial}
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$tmp.keys"' EXIT

while IFS= read -r line; do
	case $line in
	'<!-- options: '*' -->')
		printf '%s\n' "$line"
		name=${line#'<!-- options: '}
		name=${name%' -->'}
		skip=1
		if "$iotrial" keys "$name" >"$tmp.keys" 2>/dev/null; then
			skip=0
			echo '| option | type | default | range | meaning |'
			echo '| --- | --- | --- | --- | --- |'
			awk -F '\t' '{
				gsub(/\|/, "\\|", $5)
				def = $3 == "-" ? "none" : "`" $3 "`"
				printf "| [`%s`](#%s) | %s | %s | %s | %s |\n", $1, $1, $2, def, $4, $5
			}' "$tmp.keys"
		fi
		;;
	'<!-- end of options -->')
		skip=
		printf '%s\n' "$line"
		;;
	*)
		# Inside a block: the old table goes, unless this build cannot make the new one.
		[ "${skip:-1}" = 0 ] || printf '%s\n' "$line"
		;;
	esac
done <"$file" >"$tmp" || exit 1
cat "$tmp" >"$file"
