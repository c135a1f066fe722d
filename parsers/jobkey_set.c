/* Setting one job key from its text (typed through its row by job_key_parse), for job-file
 * values, --set and matrix values alike; and a job with every key at its default. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "model/fio_names.h"
#include "model/jobkeys.h"
#include "parsers/yp.h"

int yp_file_size_percent(const char *text, double *pct, char *err, size_t errlen)
{
	char *num = strndup(text, strlen(text) - 1);
	const char *why;
	int r;

	if (!num) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* The number is itself the percentage: a second '%' (50%%, which units_parse_double
	 * reads as 0.5) is refused, not taken as 0.5%. */
	r = strchr(num, '%') ? -EINVAL : units_parse_double(num, pct, &why);
	free(num);
	if (r == -EINVAL) {
		snprintf(err, errlen, "expected a percentage like 50%%, got '%s'", text);
		return -EINVAL;
	}
	if (r < 0 || !(*pct > 0 && *pct <= 100)) { /* r: -ERANGE, past a double */
		snprintf(err, errlen,
			 "a percentage of the target must be above 0%% and at most 100%%, got '%s'",
			 text);
		return -ERANGE;
	}
	return 0;
}

/* file_size: 50%: a part of the existing target, resolved when planning. */
static int file_size_percent(struct job_spec *j, const char *text, char *err, size_t errlen)
{
	double pct;
	int r = yp_file_size_percent(text, &pct, err, errlen);

	if (r < 0)
		return r;
	j->file_size_pct = pct;
	j->file_size = 0;
	return 0;
}

/* A value that did not parse, written as fio would (4k, 1): name the iotrial spelling. */
static void fio_hint(const struct job_key *k, const char *text, char *err, size_t errlen)
{
	char want[64];
	size_t n = strlen(err);

	if ((k->type != KT_SIZE && k->type != KT_BOOL) ||
	    !fio_value_hint(k->name, text, want, sizeof(want)) || n >= errlen)
		return;
	if (k->type == KT_BOOL)
		snprintf(err + n, errlen - n, " (did you mean '%s'? fio writes 1 and 0)", want);
	else
		snprintf(
		    err + n, errlen - n,
		    " (did you mean '%s'? fio's k, m and g are powers of 1024; iotrial's sizes say their unit: KiB is 1024, kB is 1000)",
		    want);
}

int yp_set_job_key(struct job_spec *j, enum job_key_id id, const char *text, char *err,
		   size_t errlen)
{
	struct key_value v = {id, 0, NULL};
	int r;

	if (id == JK_FILE_SIZE)
		j->file_size_pct = 0;
	if (id == JK_FILE_SIZE && *text && text[strlen(text) - 1] == '%')
		return file_size_percent(j, text, err, errlen);
	r = job_key_parse(job_key_row(id), text, &v, err, errlen);
	if (r == -EINVAL)
		fio_hint(job_key_row(id), text, err, errlen);
	if (r == 0)
		r = job_key_put(j, &v);
	if (r == -E2BIG)
		snprintf(err, errlen, "a job sets at most %d backend options", JOB_OPTS_MAX);
	/* A string's copy, or a backend option's room (job_opt_put): the callers print err. */
	if (r == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	job_key_value_release(&v);
	return r;
}

int yp_job_defaults(struct job_spec *j)
{
	char err[256];

	memset(j, 0, sizeof(*j));
	if (!(j->key_loc = calloc(JK_MAX, sizeof(*j->key_loc))) ||
	    !(j->rep = calloc(1, sizeof(*j->rep)))) {
		spec_job_release(j);
		return -ENOMEM;
	}
	for (int i = 0; i < JK_NKEYS; i++)
		if (job_keys[i].def &&
		    yp_set_job_key(j, i, job_keys[i].def, err, sizeof(err)) < 0) {
			spec_job_release(j);
			return -ENOMEM;
		}
	return 0;
}
