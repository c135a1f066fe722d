#!/bin/sh
# make check-layers: includes point down the layers, and no two modules include each other.
# The table below gives each unit of the tree (a folder, or one file) and the units its files
# may include; a file belongs to the unit of the longest prefix that matches its path, and a
# file of no unit is an error, so a new folder gets a line here. A module is a .c file, its
# .h and its _internal.h (engine/run/trial.c, engine/run/trial.h and engine/run/trial_internal.h are
# module engine/trial); any include cycle between modules is an error, even within a unit.
# Prints one line per include against the table and, per cycle, its modules and the
# includes that close it; exits 1 when it found any, 0 otherwise.
# Usage: scripts/check-layers.sh [FILE...]   (default: every .c and .h outside tests/)
cd "$(dirname "$0")/.." || exit 2

# The folders, bottom layer first (docs/architecture.md): lib/ knows nothing of iotrial;
# model/ is what a job and a result are; parsers/, engine/ and reporters/ sit side by side
# on the model, none including another; the command line sits on top. Inside the engine,
# statistics and the distributed transport are below the I/O path, and the I/O path knows
# neither the planner nor the runner. plot/ draws the figures of report.html.
# unit             may include (besides itself)
LAYERS='
lib/
model/              lib/
parsers/            lib/ model/
engine/stats/       lib/ model/
engine/dist/        lib/ model/ engine/stats/
engine/io/backends/ lib/ model/
engine/io/          lib/ model/ engine/stats/ engine/io/backends/
engine/plan/        lib/ model/ engine/stats/ engine/dist/ engine/io/ engine/io/backends/
engine/run/         lib/ model/ engine/stats/ engine/dist/ engine/io/ engine/io/backends/ engine/plan/
plot/               lib/ model/
reporters/          lib/ model/ plot/
cli/                lib/ model/ parsers/ engine/stats/ engine/dist/ engine/io/ engine/io/backends/ engine/plan/ engine/run/ plot/ reporters/
iotrial.c           cli/ lib/ model/ parsers/ engine/stats/ engine/dist/ engine/io/ engine/io/backends/ engine/plan/ engine/run/ plot/ reporters/
'

if [ $# -eq 0 ]; then
	set -- $(find . -path ./tests -prune -o -path './build*' -prune -o -path ./.git -prune -o \
		-type f \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | LC_ALL=C sort)
fi

# Each include as "FILE LINE TARGET", then the table, to one awk.
for f in "$@"; do
	awk -v f="$f" '/^[ \t]*#[ \t]*include[ \t]*"/ {
		t = $0; sub(/^[^"]*"/, "", t); sub(/".*/, "", t); print "inc", f, FNR, t
	}' "$f" || exit 2
	echo "file $f"
done | LC_ALL=C awk -v layers="$LAYERS" '
function unit_of(path,   u, best) {
	best = ""
	for (u in allowed_any)
		if (index(path, u) == 1 && length(u) > length(best))
			best = u
	return best
}
function module_of(path) {
	sub(/\.[ch]$/, "", path)
	sub(/_internal$/, "", path)
	return path
}
# Tarjan: the strongly connected components of the module graph; each of more than one
# module is a cycle.
function strong(v,   i, w) {
	index_of[v] = low[v] = ++counter
	stack[++sp] = v
	on_stack[v] = 1
	for (i = 1; i <= nout[v]; i++) {
		w = out[v, i]
		if (!(w in index_of)) {
			strong(w)
			if (low[w] < low[v])
				low[v] = low[w]
		} else if (on_stack[w] && index_of[w] < low[v])
			low[v] = index_of[w]
	}
	if (low[v] == index_of[v]) {
		ncomp++
		size[ncomp] = 0
		do {
			w = stack[sp--]
			on_stack[w] = 0
			comp[w] = ncomp
			members[ncomp] = (size[ncomp]++ ? w ", " : w) members[ncomp]
		} while (w != v)
	}
}
BEGIN {
	n = split(layers, line, "\n")
	for (i = 1; i <= n; i++) {
		k = split(line[i], word, /[ \t]+/)
		if (k == 0 || word[1] == "")
			continue
		allowed_any[word[1]] = 1
		for (j = 2; j <= k; j++)
			allowed[word[1], word[j]] = 1
	}
}
$1 == "file" {
	exists[$2] = 1
	next
}
$1 == "inc" {
	ninc++
	src[ninc] = $2; lineno[ninc] = $3; dst[ninc] = $4
}
END {
	bad = 0
	for (p in allowed) {
		split(p, ends, SUBSEP)
		if ((ends[2], ends[1]) in allowed && ends[1] < ends[2]) {
			printf "check-layers: the table lets %s and %s include each other\n", ends[1], ends[2]
			bad++
		}
	}
	for (i = 1; i <= ninc; i++) {
		s = src[i]; d = dst[i]
		if (!(s in exists))
			continue
		if (!(d in exists)) {
			printf "check-layers: %s:%d: #include \"%s\": no such file in the tree (includes name their path from the top)\n", s, lineno[i], d
			bad++
			continue
		}
		us = unit_of(s); ud = unit_of(d)
		if (us == "" || ud == "") {
			printf "check-layers: %s:%d: %s is in no unit of the layer table (scripts/check-layers.sh)\n", s, lineno[i], us == "" ? s : d
			bad++
			continue
		}
		if (us != ud && !((us, ud) in allowed)) {
			printf "check-layers: %s:%d: #include \"%s\": %s may not include %s\n", s, lineno[i], d, us, ud
			if (!((us, ud) in npair))
				pairs[++np] = us SUBSEP ud
			npair[us, ud]++
			back++
		}
		ms = module_of(s); md = module_of(d)
		if (ms == md || ((ms, md) in edge))
			continue
		edge[ms, md] = i
		out[ms, ++nout[ms]] = md
		node[ms] = node[md] = 1
	}
	for (v in node)
		if (!(v in index_of))
			strong(v)
	for (c = 1; c <= ncomp; c++) {
		if (size[c] < 2)
			continue
		cycles++
		printf "check-layers: include cycle between %d modules: %s\n", size[c], members[c]
		# The includes inside the cycle, sorted for a stable report.
		m = 0
		for (e in edge) {
			split(e, ends, SUBSEP)
			if (comp[ends[1]] == c && comp[ends[2]] == c)
				list[++m] = sprintf("%s:%d: #include \"%s\"", src[edge[e]], lineno[edge[e]], dst[edge[e]])
		}
		for (a = 2; a <= m; a++)
			for (b = a; b > 1 && list[b - 1] > list[b]; b--) {
				t = list[b]; list[b] = list[b - 1]; list[b - 1] = t
			}
		for (a = 1; a <= m; a++)
			printf "    %s\n", list[a]
	}
	for (a = 1; a <= np; a++) {
		split(pairs[a], ends, SUBSEP)
		printf "check-layers: %d include(s) from %s of %s\n", npair[pairs[a]], ends[1], ends[2]
	}
	if (bad + back + cycles > 0) {
		printf "check-layers: %d include(s) against the layers, %d include cycle(s), %d other problem(s)\n", back, cycles, bad
		exit 1
	}
	printf "check-layers: %d includes, every one down the layers, no include cycle\n", ninc
}'
