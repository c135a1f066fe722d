#!/bin/sh
# Rejects what would let a failing check pass in a shell test. Bodies run under errexit
# (tests/t/lib.sh), which ignores a failure on the left of `&&`, and a command negated with
# `!`: a check written so is never counted. Also rejects early-closing readers in a pipe
# (`| head`, `| grep -q`), which pipefail could turn into a false failure by SIGPIPE.
# Heredoc bodies and comments are not code and are skipped. Usage: tests/lint-tests.sh [FILE...]
# (default tests/t/t*.sh); prints file:line: message for each and exits 1 if any.
cd "$(dirname "$0")/.." || exit 2
[ $# -gt 0 ] || set -- tests/t/t[0-9]*.sh
awk '
FNR == 1 { heredoc = "" }
heredoc != "" {
	line = $0
	sub(/^\t+/, "", line)
	if (line == heredoc) heredoc = ""
	next
}
{
	code = $0
	if (match(code, /<<-?[ \t]*\x27?"?[A-Za-z_]+/)) {
		tag = substr(code, RSTART, RLENGTH)
		sub(/^<<-?[ \t]*\x27?"?/, "", tag)
		heredoc = tag
	}
	# Strip quoted text (awk and jq programs, messages) and then a comment.
	gsub(/"([^"\\]|\\.)*"/, "\"\"", code)
	gsub(/\x27[^\x27]*\x27/, "\x27\x27", code)
	sub(/(^|[ \t])#.*$/, "", code)
	# A condition (of if, while, until) may span lines up to its then or do.
	if (code ~ /^[ \t]*(if|elif|while|until)[ \t]/) cond = 1
	if (code ~ /&&/ && !cond) {
		printf "%s:%d: \"&&\" hides a failure on its left under errexit: one command a line (or an if)\n", FILENAME, FNR
		bad = 1
	}
	if (code ~ /^[ \t]*![ \t]/ || code ~ /(;|\(|\{)[ \t]*![ \t]/) {
		printf "%s:%d: a command negated with \"!\" never fails the test: use \"not CMD\"\n", FILENAME, FNR
		bad = 1
	}
	if (code ~ /\|[ \t]*(head|grep[ \t]+(-[A-Za-z]*q|-[A-Za-z]*l|-m))/) {
		printf "%s:%d: a reader that stops early in a pipe can kill the writer by SIGPIPE under pipefail: read a file, or grep without -q\n", FILENAME, FNR
		bad = 1
	}
	if (code ~ /(^|[ \t;])(then|do)([ \t]|$)/) cond = 0
}
END { exit bad }
' "$@" || bad=1
# A test body is one single-quoted word: an apostrophe inside it (a comment's "row's") ends
# the word, and lib.sh then stops the whole file with "takes a title and a body". The quote
# is written '"'"' there.
awk '
FNR == 1 { body = 0 }
body && /^\x27[ \t]*$/ { body = 0; next }
body {
	line = $0
	gsub(/\x27"\x27"\x27|\x27\\\x27\x27/, "", line)
	if (line ~ /\x27/) {
		printf "%s:%d: an apostrophe ends the single-quoted test body: write \x27\"\x27\"\x27 or other words\n", FILENAME, FNR
		bad = 1
	}
	next
}
/^test_expect_(success|failure)[ \t].*[ \t]\x27$/ { body = 1 }
END { exit bad }
' "$@" || bad=1
exit ${bad:-0}
