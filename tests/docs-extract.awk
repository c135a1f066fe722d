# Reads one Markdown file and prints what tests/t/t0012-docs-examples.sh checks in it, one
# record a line, tab-separated (a record's text is the rest of the line, as written):
#
#   S LINE            a session starts (a code block whose first line starts with "$ ")
#   C LINE TEXT       a command of the session; "> " lines after it continue it (K records)
#   K LINE TEXT       a continuation line of the command before
#   O LINE TEXT       a line of the output the doc shows for the command before
#   E LINE            the block ends
#   F LINE NAME       the fenced block after <!-- file: NAME --> is a file: L records, then E
#   Y LINE            a fenced yaml block: L records, then E
#   L LINE TEXT       a line of a file or yaml block
#   X LINE TEXT       a line of the context of the next yaml block: the lines of a comment
#                     "<!-- context:" ... "-->" before it (what a fragment needs to be a job
#                     file: the jobs a compare: names, say), invisible once rendered
#   B LINE TEXT       a line of another code block that looks like a command (coverage)
#
# Code blocks: fenced (```) or indented by 4 spaces or more after a blank line; an indented
# block keeps the indentation of its first line, and is read without it.
function is_command(t) {
	return t ~ /^(\$ )?([A-Z_][A-Z0-9_]*=("[^"]*"|[^ ]*) )*(\.\/iotrial|iotrial|build-[a-z]+\/iotrial|bench\/[a-z-]+\.sh|make|mpirun|srun|sbatch|sudo|jq)( |$)/
}
function flush_block(   i, t, kind) {
	if (nb == 0)
		return
	kind = "other"
	for (i = 1; i <= nb; i++)
		if (blk[i] != "") {
			if (substr(blk[i], 1, 2) == "$ ")
				kind = "session"
			break
		}
	if (fname != "")
		kind = "file"
	else if (lang == "yaml")
		kind = "yaml"
	if (kind == "session")
		printf "S\t%d\n", bline[1]
	else if (kind == "file")
		printf "F\t%d\t%s\n", bline[1], fname
	else if (kind == "yaml")
		printf "Y\t%d\n", bline[1]
	for (i = 1; i <= nb; i++) {
		t = blk[i]
		if (kind == "session") {
			if (substr(t, 1, 2) == "$ ")
				printf "C\t%d\t%s\n", bline[i], substr(t, 3)
			else if (substr(t, 1, 2) == "> " || t == ">")
				printf "K\t%d\t%s\n", bline[i], substr(t, 3)
			else
				printf "O\t%d\t%s\n", bline[i], t
		} else if (kind == "file" || kind == "yaml") {
			printf "L\t%d\t%s\n", bline[i], t
		} else if (is_command(t)) {
			printf "B\t%d\t%s\n", bline[i], t
		}
	}
	if (kind != "other")
		printf "E\t%d\n", bline[nb]
	nb = 0
	fname = ""
	lang = ""
}
function add(t) {
	blk[++nb] = t
	bline[nb] = NR
}
BEGIN { nb = 0; fence = 0; indent = -1; prev_blank = 1; pending = "" }
{
	line = $0
	sub(/\r$/, "", line)
	if (fence) {
		if (line ~ /^ ? ? ?```/) {
			flush_block()
			fence = 0
		} else {
			add(substr(line, findent + 1))
		}
		prev_blank = 0
		next
	}
	if (indent >= 0) {
		if (line ~ /^[ \t]*$/) {
			blanks++
			prev_blank = 1
			next
		}
		match(line, /^ */)
		if (RLENGTH >= indent) {
			for (; blanks > 0; blanks--)
				add("")
			add(substr(line, indent + 1))
			prev_blank = 0
			next
		}
		flush_block()
		indent = -1
	}
	if (line ~ /^ ? ? ?```/) {
		match(line, /^ */)
		findent = RLENGTH
		lang = line
		sub(/^ *```/, "", lang)
		sub(/[ \t].*$/, "", lang)
		fname = pending
		pending = ""
		fence = 1
		nb = 0
		next
	}
	if (incontext) {
		if (line ~ /^-->$/)
			incontext = 0
		else
			printf "X\t%d\t%s\n", NR, line
		next
	}
	if (line ~ /^<!-- context:$/) {
		incontext = 1
		next
	}
	if (line ~ /^<!-- file: [^ ]+ -->$/) {
		pending = line
		sub(/^<!-- file: /, "", pending)
		sub(/ -->$/, "", pending)
		prev_blank = 0
		next
	}
	match(line, /^ */)
	if (prev_blank && RLENGTH >= 4 && line !~ /^ *$/) {
		indent = RLENGTH
		blanks = 0
		lang = ""
		fname = ""
		nb = 0
		add(substr(line, indent + 1))
		prev_blank = 0
		next
	}
	pending = ""
	prev_blank = line ~ /^[ \t]*$/
}
END {
	if (indent >= 0 || fence)
		flush_block()
}
