/* What the figure files of plot/ share among themselves (not for the reporters). */
#ifndef IOTRIAL_PLOT_INTERNAL_H
#define IOTRIAL_PLOT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/metrics.h"
#include "model/results.h"
#include "plot/svg.h"

/* A size with three significant digits in the job file's units: "32.8 kB", "1.21 GB". */
void plot_size3(char *b, size_t len, double v, bool binary);

/* The unit, axis label and multiplier (seconds are drawn in ns units) of a metric's axis
 * whose largest value is `max`. */
void plot_metric_axis(const struct metric *m, double max, bool binary, struct plot_unit *u,
		      char *label, size_t len, double *mul);

/* The summary of the metric named `name` (model/metrics.h), or NULL. */
const struct stat_summary *plot_metric_stat(const struct instance_summary *s, const char *name);

#endif
