/* iotrial keys [NAME | BACKEND | --json]: the job key table, one key a line with
 * tab-separated fields; one key described in full; one backend's option table; or every key
 * (the backends' options included) as JSON for the tools that are generated from it
 * (scripts/gen-schema.sh, scripts/gen-completion.sh, scripts/gen-man.sh). The docs are checked
 * against this output (tests/t/t0004-docs.sh, tests/t/t0033-cli.sh). */
#include "cli/cli.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "engine/io/backends/backend.h"
#include "model/fio_names.h"
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

/* fio's names for key `name`, comma-separated, or "" when fio has none (model/fio_names.h:
 * the rows import-fio maps to the key). */
static void fio_equivalents(char *buf, size_t len, const char *name)
{
	size_t o = 0;

	buf[0] = 0;
	for (const struct fio_name *n = fio_names; n->fio && o < len; n++)
		if (n->key && !strcmp(n->key, name) && !n->pending && n->conv != FC_NONE &&
		    n->conv != FC_NOTE)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", n->fio);
}

static int backend_options(const struct job_key *options)
{
	char r[256];

	for (const struct job_key *k = options; k && k->name; k++) {
		range(r, sizeof(r), k);
		printf("%s\t%s\t%s\t%s\t%s\n", k->name, type_names[k->type], k->def ? k->def : "-",
		       r, k->help);
	}
	return 0;
}

/* A backend's options; else a key (the table's or a backend's option) in full; else a usage
 * error naming the closest key. */
static int describe(const char *name)
{
	const struct job_key *k = job_key_find(name);
	const struct be_ops *be = be_find(name);
	const char *names[JK_NKEYS + JK_EXT_MAX + 1];
	const char *close, *pkg;
	char r[512], fio[256];

	/* A backend first: `iotrial keys BACKEND` came first, and scripts loop over backends. */
	if (be && !strcmp(be->name, name))
		return backend_options(be->options);
	if (!be && (pkg = be_missing_library(name))) {
		fprintf(stderr,
			"iotrial: keys: backend '%s' is not compiled into this build "
			"(install %s and rebuild); its options:\n",
			name, pkg);
		return backend_options(be_left_out_options(name));
	}
	if (!k) {
		names[job_key_names(names, JK_NKEYS + JK_EXT_MAX)] = NULL;
		close = job_key_suggest(name, names);
		fprintf(stderr, "iotrial: keys: no key or backend '%s'%s%s%s\n", name,
			close ? " (did you mean '" : "", close ? close : "", close ? "'?)" : "");
		cli_usage_hint("keys");
		return EXIT_USAGE;
	}
	range(r, sizeof(r), k);
	fio_equivalents(fio, sizeof(fio), k->name);
	printf("%s\n", k->name);
	printf("  type:     %s\n", type_names[k->type]);
	printf("  default:  %s\n", k->def ? k->def : "none");
	printf("  values:   %s\n", r);
	printf("  example:  %s\n", k->example ? k->example : "none");
	printf("  fio:      %s\n", *fio ? fio : "none");
	printf("  %s\n", k->help);
	return 0;
}

/* Row `k` as a JSON object; NULL when memory ran out. Bounds of a numeric key are numbers
 * in the key's base unit (bytes, nanoseconds), as results.json gives them. */
static json_t *key_json(const struct job_key *k, const char *owner)
{
	json_t *o =
	    json_pack("{s:s, s:s, s:s?, s:s, s:s}", "name", k->name, "type", type_names[k->type],
		      "default", k->def, "help", k->help, "example", k->example ? k->example : "");
	json_t *e;
	int bad = 0;

	if (!o)
		return NULL;
	if (k->type == KT_ENUM) {
		bad |= json_object_set_new(o, "values", e = json_array());
		for (size_t i = 0; e && k->enums[i]; i++)
			bad |= json_array_append_new(e, json_string(k->enums[i]));
	} else if (k->type == KT_DOUBLE) {
		bad |= json_object_set_new(o, "min", json_real(k->dmin));
		bad |= json_object_set_new(o, "max", json_real(k->dmax));
	} else if (k->type == KT_SIZE || k->type == KT_DURATION || k->type == KT_UINT) {
		bad |= json_object_set_new(o, "min", json_integer((json_int_t)k->min));
		/* A bound past what a JSON reader holds exactly is no bound at all. */
		if (k->max < (1ull << 53))
			bad |= json_object_set_new(o, "max", json_integer((json_int_t)k->max));
	}
	if (owner)
		bad |= json_object_set_new(o, "backend", json_string(owner));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int keys_json(void)
{
	json_t *all = json_array();
	int ret = 0;

	for (size_t i = 0; all && i < job_key_count() && !ret; i++)
		ret = json_array_append_new(all, key_json(job_key_row((enum job_key_id)i),
							  job_key_owner((enum job_key_id)i)));
	if (!all || ret || json_dumpf(all, stdout, JSON_INDENT(1)) < 0) {
		fprintf(stderr, "iotrial: keys: out of memory\n");
		json_decref(all);
		return EXIT_RUN;
	}
	json_decref(all);
	putchar('\n');
	return 0;
}

int cmd_keys(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(iotrial_usage, stdout);
		return 0;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-' && strcmp(argv[1], "--json"))) {
		if (argc > 2)
			fprintf(stderr, "iotrial: keys takes at most one key or backend name\n");
		else
			fprintf(stderr, "iotrial: unknown option '%s'\n", argv[1]);
		cli_usage_hint("keys");
		return EXIT_USAGE;
	}
	if (argc == 2)
		return strcmp(argv[1], "--json") ? describe(argv[1]) : keys_json();
	for (size_t i = 0; i < JK_NKEYS; i++) {
		const struct job_key *k = &job_keys[i];
		printf("%s\t%s\t%s\t%s\n", k->name, type_names[k->type], k->def ? k->def : "-",
		       k->help);
	}
	return 0;
}
