/* stdout as a stream: `-f ndjson` puts the run's events there as they happen, `-o -` puts
 * the run there instead of into a folder (its events, or results.json). Whatever else would
 * reach stdout then goes to stderr: the stream is taken from stdout's descriptor once, and
 * descriptor 1 is pointed at stderr, so a stray printf or a job's command cannot corrupt it. */
#ifndef IOTRIAL_CLI_STREAM_H
#define IOTRIAL_CLI_STREAM_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/run/run_events.h"

struct rep_list;
struct rep_ops;
struct plan;

struct cli_stream {
	bool on;		   /* stdout is the stream's */
	FILE *out;		   /* what stdout was; NULL: not on */
	const struct rep_ops *rep; /* the reporter whose events go there; NULL: none */
	int err;		   /* the first error writing to it (-errno); 0: none */
};

/* Does -o name stdout ("-") rather than a folder? */
bool cli_stream_only(const char *outdir);

/* Check -o and -f together (run only): -o - takes ndjson (its default) or json, one of the
 * two; anything else is refused with one line on stderr. Returns 0 (with -o - and no -f,
 * `formats` becomes ndjson) or -EINVAL. */
int cli_stream_check(const char *outdir, struct rep_list *formats, bool formats_given);

/* Take stdout for the stream when -o - or -f ndjson asks (else do nothing). Returns 0, or
 * -errno after a line on stderr. */
int cli_stream_open(struct cli_stream *s, const char *outdir, const struct rep_list *formats);

/* Are the run's events streamed (by cli_stream_observer, with `s` as its context)? */
bool cli_stream_events(const struct cli_stream *s);

/* The observer that writes each event of the run on the stream. */
extern const struct run_observer cli_stream_observer;

/* -o -: one line on stderr for each job that asks for a record log, which needs a folder. */
void cli_stream_warn_logs(const struct plan *p);

/* -o - after the run: results.json on the stream when json was asked for. Returns 0 or an
 * exit status (EXIT_RUN, EXIT_PIPE). */
int cli_stream_results(struct cli_stream *s, const struct results *r,
		       const struct rep_list *formats);

/* What writing the stream came to: 0, EXIT_PIPE (its reader went away: no further job file
 * runs) or EXIT_RUN (another error), each said once on stderr. */
int cli_stream_status(struct cli_stream *s);

/* Flush and close the stream. Safe when it was never opened. */
void cli_stream_close(struct cli_stream *s);

#endif
