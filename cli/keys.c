/* iotrial keys [BACKEND]: the job key table, or one backend's option table, one key a line
 * with tab-separated fields. The docs are checked against this output (tests/t/t0004-docs.sh,
 * tests/t/t0024-backend-options.sh), so what is printed is what the tables declare. */
#include "cli/cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/io/backends/backend.h"
#include "model/jobkeys.h"

static const char *const type_names[] = {"string", "size", "duration", "count",
					 "bool",   "enum", "number"};

/* `v` in the largest unit of `units` (values `sizes`, descending) that divides it. */
static void exact(char *buf, size_t len, uint64_t v, const char *const *units,
		  const uint64_t *sizes, size_t n)
{
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (v % sizes[i] == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", v / sizes[i], units[i]);
			return;
		}
	snprintf(buf, len, "%" PRIu64 "%s", v, units[n - 1]);
}

/* A bound of row `k` as a job file would write it: 16TiB, 1h, 4096. */
static void bound(char *buf, size_t len, const struct job_key *k, uint64_t v)
{
	static const char *const sz[] = {"TiB", "GiB", "MiB", "KiB", ""};
	static const uint64_t szv[] = {1ull << 40, 1ull << 30, 1ull << 20, 1ull << 10, 1};
	static const char *const du[] = {"h", "m", "s", "ms", "us", "ns"};
	static const uint64_t duv[] = {3600000000000ull, 60000000000ull, 1000000000ull,
				       1000000,		 1000,		 1};

	if (k->type == KT_SIZE)
		exact(buf, len, v, sz, szv, 5);
	else if (k->type == KT_DURATION)
		exact(buf, len, v, du, duv, 6);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/* What a value of row `k` may be: "0 to 16TiB", "normal, lognormal", "any". */
static void range(char *buf, size_t len, const struct job_key *k)
{
	char lo[32], hi[32];
	size_t o = 0;

	switch (k->type) {
	case KT_ENUM:
		buf[0] = 0;
		for (size_t i = 0; k->enums[i] && o < len; i++)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", k->enums[i]);
		return;
	case KT_BOOL:
		snprintf(buf, len, "true, false");
		return;
	case KT_DOUBLE:
		snprintf(buf, len, "%g to %g", k->dmin, k->dmax);
		return;
	case KT_STRING:
		snprintf(buf, len, "text");
		return;
	default:
		if (k->min == 0 && k->max >= UINT64_MAX - 1) {
			snprintf(buf, len, "any");
			return;
		}
		bound(lo, sizeof(lo), k, k->min);
		bound(hi, sizeof(hi), k, k->max);
		snprintf(buf, len, "%s to %s", lo, hi);
	}
}

static int backend_options(const char *name)
{
	const struct be_ops *be = be_find(name);
	char r[256];

	if (!be || strcmp(be->name, name)) {
		fprintf(stderr, "iotrial: keys: unknown backend '%s' (this build has: %s)\n", name,
			be_names());
		return EXIT_USAGE;
	}
	for (const struct job_key *k = be->options; k && k->name; k++) {
		range(r, sizeof(r), k);
		printf("%s\t%s\t%s\t%s\t%s\n", k->name, type_names[k->type], k->def ? k->def : "-",
		       r, k->help);
	}
	return 0;
}

int cmd_keys(int argc, char **argv)
{
	if (argc > 2) {
		fprintf(stderr, "iotrial: keys takes at most one backend name\n");
		return EXIT_USAGE;
	}
	if (argc == 2)
		return backend_options(argv[1]);
	for (size_t i = 0; i < JK_NKEYS; i++) {
		const struct job_key *k = &job_keys[i];
		printf("%s\t%s\t%s\t%s\n", k->name, type_names[k->type], k->def ? k->def : "-",
		       k->help);
	}
	return 0;
}
