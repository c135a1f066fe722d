/* The replication: mapping — how many runs (a count or a precision target), warm-up,
 * outlier policy, trial order — at top level, in defaults or on a job. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "model/metrics.h"
#include "model/names.h"
#include "parsers/yp.h"

#define MAX_RUNS 1000000

static const char *const rep_keys[] = {"runs",	 "warmup", "confidence", "error",  "order", "seed",
				       "target", "trim",   "outliers",	 "metric", NULL};
static const char *const target_keys[] = {"confidence", "error", "pilot", "max",
					  "estimate",	"round", NULL};
static const char *const trim_keys[] = {"low", "high", NULL};
static const char *const outlier_keys[] = {"policy", "k", "threshold", NULL};

static int set_count(uint32_t *out, const char *text, uint64_t min, char *err, size_t errlen)
{
	const char *why = NULL;
	uint64_t u;

	if (units_parse_uint(text, &u, &why) < 0) {
		snprintf(err, errlen, "expected a whole number, got '%s' (%s)", text, why);
		return -EINVAL;
	}
	if (u < min || u > MAX_RUNS) {
		snprintf(err, errlen, "must be between %llu and %d, got '%s'",
			 (unsigned long long)min, MAX_RUNS, text);
		return -ERANGE;
	}
	*out = (uint32_t)u;
	return 0;
}

static int set_fraction(double *out, const char *text, char *err, size_t errlen)
{
	const char *why = NULL;
	double x;

	if (units_parse_double(text, &x, &why) < 0) {
		snprintf(err, errlen, "expected a fraction like 0.95 or 95%%, got '%s'", text);
		return -EINVAL;
	}
	if (!(x > 0 && x < 1)) {
		snprintf(err, errlen, "must be between 0 and 1 (exclusive), got '%s'", text);
		return -ERANGE;
	}
	*out = x;
	return 0;
}

static int set_positive(double *out, const char *text, char *err, size_t errlen)
{
	const char *why = NULL;
	double x;

	if (units_parse_double(text, &x, &why) < 0 || !(x > 0 && x <= 1000)) {
		snprintf(err, errlen, "expected a number above 0 (at most 1000), got '%s'", text);
		return -EINVAL;
	}
	*out = x;
	return 0;
}

static int set_enum(int *out, const char *const *names, const char *text, char *err, size_t errlen)
{
	char list[128];
	int i = names_find(names, text);

	if (i < 0) {
		yp_enum_list(list, sizeof(list), names);
		snprintf(err, errlen, "unknown value '%s' (expected one of: %s)", text, list);
		return -EINVAL;
	}
	*out = i;
	return 0;
}

/* A metric's name, a copy of the table's, into *out (freed first). */
static int set_metric(char **out, const char *text, char *err, size_t errlen)
{
	const struct metric *m = metric_find(text);
	char list[128];

	if (!m) {
		metric_list(list, sizeof(list), ", ");
		snprintf(err, errlen, "unknown value '%s' (expected one of: %s)", text, list);
		return -EINVAL;
	}
	free(*out);
	*out = strdup(m->name);
	return 0;
}

int yp_set_rep_path(struct replication_spec *r, const char *path, const char *text, char *err,
		    size_t errlen)
{
	const char *why = NULL;
	int v, ret;

	if (!strcmp(path, "runs"))
		return set_count(&r->runs, text, 1, err, errlen);
	if (!strcmp(path, "warmup"))
		return set_count(&r->warmup, text, 0, err, errlen);
	if (!strcmp(path, "confidence"))
		return set_fraction(&r->confidence, text, err, errlen);
	if (!strcmp(path, "error"))
		return set_fraction(&r->error, text, err, errlen);
	if (!strcmp(path, "order")) {
		ret = set_enum(&v, order_names, text, err, errlen);
		r->order = ret ? r->order : (enum spec_order)v;
		return ret;
	}
	if (!strcmp(path, "seed")) {
		if (units_parse_uint(text, &r->seed, &why) < 0 || r->seed >= (1ull << 53)) {
			snprintf(err, errlen, "expected a whole number below 2^53, got '%s'", text);
			return -EINVAL;
		}
		r->seed_set = true;
		return 0;
	}
	if (!strcmp(path, "metric")) {
		if ((ret = set_metric(&r->metric, text, err, errlen)) < 0)
			return ret;
		return r->metric ? 0 : -ENOMEM;
	}
	if (!strncmp(path, "target.", 7) && !r->target) {
		r->pilot = 20; /* the defaults a target: mapping would have given */
		r->max = 1000;
	}
	if (!strcmp(path, "target.confidence") || !strcmp(path, "target.error")) {
		r->target = true;
		return set_fraction(path[7] == 'c' ? &r->confidence : &r->error, text, err, errlen);
	}
	if (!strcmp(path, "target.estimate")) {
		r->target = true;
		if ((ret = set_enum(&v, estimate_names, text, err, errlen)) < 0)
			return ret;
		r->estimate_pilot = v == ESTIMATE_PILOT;
		return 0;
	}
	if (!strcmp(path, "target.round")) {
		r->target = true;
		return set_count(&r->round, text, 1, err, errlen);
	}
	if (!strcmp(path, "target.pilot") || !strcmp(path, "target.max")) {
		r->target = true;
		return set_count(path[7] == 'p' ? &r->pilot : &r->max, text, 2, err, errlen);
	}
	if (!strcmp(path, "trim.low") || !strcmp(path, "trim.high")) {
		r->outliers = OUTLIERS_TRIM;
		return set_count(path[5] == 'l' ? &r->trim_low : &r->trim_high, text, 0, err,
				 errlen);
	}
	if (!strcmp(path, "outliers") || !strcmp(path, "outliers.policy")) {
		ret = set_enum(&v, outlier_policy_names, text, err, errlen);
		if (ret == 0) {
			r->outliers = (enum spec_outliers)v;
			if (!r->outlier_k_set) /* the policy's own default, unless one was given */
				r->outlier_k = v == OUTLIERS_MAD ? 3.5 : 1.5;
		}
		return ret;
	}
	if (!strcmp(path, "outliers.k") || !strcmp(path, "outliers.threshold")) {
		r->outlier_k_set = true;
		return set_positive(&r->outlier_k, text, err, errlen);
	}
	snprintf(err, errlen, "unknown replication key '%s'", path);
	return -ENOENT;
}

bool yp_rep_path_known(const char *path)
{
	static const char *const paths[] = {"runs",
					    "warmup",
					    "confidence",
					    "error",
					    "order",
					    "seed",
					    "metric",
					    "outliers",
					    "outliers.policy",
					    "outliers.k",
					    "outliers.threshold",
					    "trim.low",
					    "trim.high",
					    "target.confidence",
					    "target.error",
					    "target.pilot",
					    "target.max",
					    "target.estimate",
					    "target.round",
					    NULL};

	return names_find(paths, path) >= 0;
}

/* A nested mapping (target, trim, outliers): each key as "name.key". */
static void parse_nested(struct yp *p, struct replication_spec *r, const char *name,
			 const char *const *keys, const yaml_node_t *m)
{
	char where[64], path[64], err[256];

	if (!yp_mapping_ok(p, m, name, "settings"))
		return;
	snprintf(where, sizeof(where), " in %s", name);
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		const char *key = (const char *)kn->data.scalar.value;
		char *text;

		if (yp_key_index(p, kn, keys, where) < 0 ||
		    !(text = yp_text(p, vn, key, "a value")))
			continue;
		snprintf(path, sizeof(path), "%s.%s", name, key);
		if (yp_set_rep_path(r, path, text, err, sizeof(err)) < 0)
			yp_err(p, vn, key, "%s", err);
		free(text);
	}
}

void yp_check_replication(struct yp *p, const struct replication_spec *r, const struct src_loc *loc)
{
	if (r->target && r->max < r->pilot) {
		diag_add(p->d, loc, "key 'target': max (%u) is below pilot (%u)", r->max, r->pilot);
		p->nerr++;
	}
	if (r->outliers == OUTLIERS_TRIM) {
		uint32_t n = r->target ? r->pilot : r->runs;
		if ((uint64_t)r->trim_low + r->trim_high >= n) {
			diag_add(p->d, loc,
				 "key 'trim': low + high (%u + %u) would remove all %u runs",
				 r->trim_low, r->trim_high, n);
			p->nerr++;
		}
	}
}

void yp_parse_replication(struct yp *p, struct replication_spec *r, const yaml_node_t *m, bool top)
{
	char err[256];

	if (!yp_mapping_ok(p, m, "replication", "replication settings"))
		return;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		const char *key = (const char *)kn->data.scalar.value;
		int i = yp_key_index(p, kn, rep_keys, " in replication");
		char *text;

		if (i < 0)
			continue;
		if (!top && (!strcmp(key, "order") || !strcmp(key, "seed"))) {
			yp_err(
			    p, kn, key,
			    "trial order belongs to the whole experiment: set it in the top-level replication");
			continue;
		}
		if (!strcmp(key, "target") && vn->type != YAML_SCALAR_NODE) {
			if (!r->target) {
				r->pilot = 20;
				r->max = 1000;
			}
			r->target = true;
			parse_nested(p, r, "target", target_keys, vn);
			continue;
		}
		if (!strcmp(key, "trim")) {
			r->outliers = OUTLIERS_TRIM;
			parse_nested(p, r, "trim", trim_keys, vn);
			continue;
		}
		if (!strcmp(key, "outliers") && vn->type == YAML_MAPPING_NODE) {
			parse_nested(p, r, "outliers", outlier_keys, vn);
			continue;
		}
		if (!(text = yp_text(p, vn, key, "a value")))
			continue;
		if (yp_set_rep_path(r, key, text, err, sizeof(err)) < 0)
			yp_err(p, vn, key, "%s", err);
		free(text);
	}
	{
		struct src_loc l = yp_loc(p, m);
		yp_check_replication(p, r, &l);
	}
}
