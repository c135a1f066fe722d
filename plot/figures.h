/*
 * The figures of report.html, each one self-contained SVG drawn from the results structure
 * (no statistics computed here: means, intervals, series and change points come from the
 * engine). Each returns true when it drew, or false with a one-line reason in *why (static
 * text) when the results lack what it needs; the page then says so in place of the figure.
 */
#ifndef IOTRIAL_FIGURES_H
#define IOTRIAL_FIGURES_H

#include <stdbool.h>
#include <stdio.h>

#include "model/results.h"

/* The metric of job `job`'s instances against its matrix key `key`, with confidence
 * interval error bars, one line per combination of its other matrix keys. id "sweep-N". */
bool plot_sweep(FILE *out, const struct results *r, const char *job, const char *key, int n,
		const char **why);

/* Comparison `c`: both sides' trials side by side (kept filled, dropped hollow) with each
 * side's mean and confidence interval. id "compare-N". */
bool plot_compare(FILE *out, const struct results *r, const struct comparison *c, int n,
		  const char **why);

/* Instance `ir`'s series of kind `kind`, one line per trial, change points marked: rate
 * against bytes written (records) or time (intervals). id "series-N-KIND". */
bool plot_series(FILE *out, const struct results *r, const struct instance_result *ir,
		 enum series_kind kind, int n, const char **why);

/* Instance `ir`'s latency percentiles (p50 to p99.99), one line per kept trial, both axes
 * logarithmic. id "latency-N". */
bool plot_latency(FILE *out, const struct results *r, const struct instance_result *ir, int n,
		  const char **why);

/* A value of matrix key `key` as the report shows it: sizes in the job file's units with
 * three significant digits, durations in ns/us/ms/s, numbers as they are. */
void plot_format_param(char *buf, size_t len, const struct param *p, bool binary);

#endif
