/* What a run tells an observer as it goes: the run starts, a trial starts and ends, an
 * interval of a logging job closes, an instance's summary and a comparison are known, the run
 * ends. The runner publishes them to its observers (engine/run/run_events.h), from its
 * coordinating thread only, at trial boundaries and interval ticks, never per I/O; a reporter
 * (reporters/ndjson.c) formats them.
 * Data flows one way: an observer reads the event and what it points to, and changes nothing. */
#ifndef IOTRIAL_EVENTS_H
#define IOTRIAL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/results.h"

enum run_event_kind {
	RUN_EV_RUN_START,   /* before the first trial: `r` holds what is known before it */
	RUN_EV_TRIAL_START, /* before trial `index` of `ir` */
	RUN_EV_TRIAL_END,   /* after it: `tr` holds its figures */
	RUN_EV_INTERVAL,    /* an interval of a job with log_interval closed: `ivl` */
	RUN_EV_SUMMARY,	    /* after the last trial: `ir`'s summary over its kept trials */
	RUN_EV_COMPARISON,  /* after the summaries: `cmp` */
	RUN_EV_RUN_END,	    /* the last event: `r` is complete (or says it is not) */
};

/* One interval of one worker: [start_ns, end_ns) from its trial's start, as a line of the
 * instance's records/<instance>.intervals.csv has it. */
struct run_interval {
	uint32_t trial, worker;
	uint64_t start_ns, end_ns;
	uint64_t bytes, ios;
	double lat_mean_ns; /* NAN: no I/O completed in the interval */
};

struct run_event {
	enum run_event_kind kind;
	const struct results *r;	  /* always */
	const struct instance_result *ir; /* trial, interval and summary events */
	const struct trial_result *tr;	  /* RUN_EV_TRIAL_END */
	const struct run_interval *ivl;	  /* RUN_EV_INTERVAL */
	const struct comparison *cmp;	  /* RUN_EV_COMPARISON */
	uint32_t index;			  /* trial events: the trial's index (warm-ups first) */
	bool warmup;			  /* trial events: a warm-up trial */
	size_t k, ntrials;   /* trial events: its place in the run, from 0, of how many so far */
	uint64_t elapsed_ns; /* since the run started (CLOCK_MONOTONIC) */
	int status; /* RUN_EV_RUN_END: 0, -EINTR when interrupted, else what run_plan returns */
};

#endif
