/* The metric table (see metrics.h). */
#include "model/metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/results.h"

_Static_assert(METRIC_N <= RESULTS_MAX_METRICS, "struct instance_summary has no room for it");

#define TRIAL(f) offsetof(struct trial_result, f)

/* name, unit, label, format, lower is better, where a trial holds the value */
const struct metric metrics[METRIC_N] = {
    [METRIC_SECONDS] = {"seconds", "s", "time", MF_SECONDS, true, TRIAL(seconds)},
    [METRIC_BW_BYTES] = {"bw_bytes", "bytes/s", "rate", MF_RATE, false, TRIAL(bw_bytes)},
    [METRIC_IOPS] = {"iops", "IO/s", "iops", MF_COUNT, false, TRIAL(iops)},
    [METRIC_LAT_MEAN_NS] = {"lat_mean_ns", "ns", "mean latency", MF_DURATION, true,
			    TRIAL(lat.mean)},
};

const struct metric *metric_find(const char *name)
{
	for (size_t i = 0; name && i < METRIC_N; i++)
		if (!strcmp(metrics[i].name, name))
			return &metrics[i];
	return NULL;
}

const struct metric *metric_or_default(const char *name)
{
	return name ? metric_find(name) : &metrics[0];
}

void metric_list(char *buf, size_t len, const char *last)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < METRIC_N && n < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 < METRIC_N ? ", " : last;
		int w = snprintf(buf + n, len - n, "%s%s", sep, metrics[i].name);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

double metric_value(const struct metric *m, const struct trial_result *t)
{
	double v;

	if (!m)
		return NAN;
	memcpy(&v, (const char *)t + m->trial_off, sizeof(v));
	return v;
}

const struct stat_summary *metric_stat(const struct instance_summary *s, const struct metric *m)
{
	return &s->stat[m - metrics];
}

struct stat_summary *metric_stat_mut(struct instance_summary *s, const struct metric *m)
{
	return &s->stat[m - metrics];
}
