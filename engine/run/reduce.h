/* The reduction of a distributed trial at rank 0: every rank's figures of one instance's
 * trial gathered there, bytes and I/Os summed, latency histograms merged bucket-wise,
 * latency moments merged with Chan's formula (welford_merge), each rank's row kept, and
 * the aggregate figures computed (last done, wall, first done). */
#ifndef IOTRIAL_REDUCE_H
#define IOTRIAL_REDUCE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/stats/hist.h"
#include "model/results.h"
#include "lib/stats.h"

/* One rank's figures of one instance's trial. */
#define REDUCE_CURVE 64

struct reduce_local {
	bool active;	   /* the instance runs on this rank (ranks:) */
	const char *error; /* its first error; NULL: none */
	uint64_t bytes, ios, errors;
	uint64_t start_ns, end_ns; /* from this rank's barrier exit; both 0: no I/O */
	double cpu_user_s, cpu_sys_s;
	bool stopped;		  /* stonewall: it stopped before its size */
	uint64_t stonewall_bytes; /* stonewall: its bytes then, before a wear_out top-up */
	const struct hist *hist;  /* NULL: empty */
	const struct welford *lat;
	/* Bytes this rank had moved at end_ns * i / REDUCE_CURVE from its barrier exit: the
	 * progress curve rank 0 reads the first-done figure from. */
	double curve[REDUCE_CURVE + 1];
	/* Its workers' rows (nworkers of them; NULL: none), and how many rows each rank sends:
	 * the job's threads when above 1, else 0, the same on every rank (from the plan). */
	const struct worker_result *workers;
	uint32_t nworkers, maxworkers;
};

/* Gather every rank's `mine` at rank 0 and, there, replace `tr`'s figures by the merged
 * ones, with one row per active rank in tr->ranks, every active rank's worker rows in
 * tr->workers (rank by rank) and the aggregates in tr->agg; a rank's error fails the trial,
 * named by rank and host. `base_ns` is rank 0's barrier exit from
 * the start of the run: the merged trial's start_ns and end_ns count from it. Collective;
 * does nothing with one rank. Returns 0, or -ENOMEM (on rank 0, which then fails `tr`). */
int reduce_trial(struct trial_result *tr, const struct reduce_local *mine, uint64_t base_ns);

#endif
