# Does the output a command printed (file GOT) match what the doc shows (file WANT)?
# Usage: awk -f tests/docs-match.awk WANT GOT; exits 0 on a match, 1 otherwise.
#
# A WANT line "…" alone stands for any number of lines (none included); "…" inside a line
# stands for any text (none included). Everything else is compared as it is, except trailing
# spaces, and blank lines at the end, which are ignored on both sides.
function line_matches(p, s,   n, part, i, at, rest) {
	if (index(p, "…") == 0)
		return p == s
	n = split(p, part, "…")
	if (substr(s, 1, length(part[1])) != part[1])
		return 0
	rest = substr(s, length(part[1]) + 1)
	for (i = 2; i < n; i++) {
		if (part[i] == "")
			continue
		at = index(rest, part[i])
		if (at == 0)
			return 0
		rest = substr(rest, at + length(part[i]))
	}
	return length(rest) >= length(part[n]) && substr(rest, length(rest) - length(part[n]) + 1) == part[n]
}
function matches(i, j,   k) {
	if (i > nw)
		return j > ng
	if (want[i] == "…") {
		for (k = j; k <= ng + 1; k++)
			if (matches(i + 1, k))
				return 1
		return 0
	}
	if (j > ng || !line_matches(want[i], got[j]))
		return 0
	return matches(i + 1, j + 1)
}
{
	sub(/[ \t\r]+$/, "")
	if (FILENAME == ARGV[1])
		want[++nw] = $0
	else
		got[++ng] = $0
}
END {
	while (nw > 0 && want[nw] == "")
		nw--
	while (ng > 0 && got[ng] == "")
		ng--
	exit matches(1, 1) ? 0 : 1
}
