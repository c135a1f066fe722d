/* stdout as a stream of events or of results.json (see stream.h). */
#include "cli/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "engine/plan/plan.h"
#include "reporters/reporter.h"

bool cli_stream_only(const char *outdir)
{
	return outdir && !strcmp(outdir, "-");
}

int cli_stream_check(const char *outdir, struct rep_list *formats, bool formats_given)
{
	bool nd = rep_list_has(formats, "ndjson");

	if (!cli_stream_only(outdir))
		return 0;
	if (!formats_given) {
		formats->n = 0;
		rep_list_add(formats, rep_find("ndjson"));
		return 0;
	}
	if (formats->n == 1 && (nd || rep_list_has(formats, "json")))
		return 0;
	fprintf(
	    stderr,
	    "iotrial: -o - puts one format on stdout, ndjson (the default) or json; for %s, name a folder with -o DIR\n",
	    formats->n == 1 ? formats->rep[0]->name : "more than one format");
	return -EINVAL;
}

/* An event for the stream: written whole and flushed, until the first error. */
static void on_event(const struct run_event *ev, void *arg)
{
	struct cli_stream *s = arg;
	int ret;

	if (s->err)
		return;
	if ((ret = s->rep->event(ev, s->out)) < 0)
		s->err = errno == EPIPE ? -EPIPE : ret;
}

int cli_stream_open(struct cli_stream *s, const char *outdir, const struct rep_list *formats)
{
	bool events = rep_list_has(formats, "ndjson");
	int fd;

	memset(s, 0, sizeof(*s));
	if (!events && !cli_stream_only(outdir))
		return 0;
	fflush(stdout);
	/* The stream keeps stdout's file; descriptor 1 becomes stderr's, for everything else
	 * (a job's command inherits it too). Close-on-exec: no command writes to the stream. */
	if ((fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) < 0 ||
	    dup2(STDERR_FILENO, STDOUT_FILENO) < 0 || !(s->out = fdopen(fd, "w"))) {
		fprintf(stderr, "iotrial: cannot set stdout aside for the stream: %s\n",
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	s->on = true;
	s->rep = events ? rep_find("ndjson") : NULL;
	return 0;
}

bool cli_stream_events(const struct cli_stream *s)
{
	return s->on && s->rep && s->rep->event;
}

const struct run_observer cli_stream_observer = {.event = on_event};

void cli_stream_warn_logs(const struct plan *p)
{
	for (size_t i = 0; i < p->ninst; i++)
		if (p->inst[i].job.log_records)
			fprintf(
			    stderr,
			    "iotrial: warning: job '%s' asks for a record log, which needs a result folder: -o - writes none\n",
			    p->inst[i].name);
}

int cli_stream_results(struct cli_stream *s, const struct results *r,
		       const struct rep_list *formats)
{
	int ret;

	if (!s->on || s->err || !rep_list_has(formats, "json"))
		return 0;
	if (fflush(s->out) == EOF) {
		s->err = -errno;
		return 0;
	}
	ret = rep_write_fd(rep_find("json"), r, fileno(s->out));
	if (ret < 0)
		s->err = ret;
	return 0;
}

int cli_stream_status(struct cli_stream *s)
{
	int err = s->err;

	if (!err)
		return 0;
	s->err = 1; /* said: the stream stays shut, and the next job file hears nothing */
	if (err == 1)
		return cli_stdout_closed ? EXIT_PIPE : EXIT_RUN;
	if (err == -EPIPE) {
		cli_stdout_closed = true;
		fprintf(stderr,
			"iotrial: stdout was closed by its reader (%s): no further job file runs\n",
			strerror(EPIPE));
		return EXIT_PIPE;
	}
	fprintf(stderr, "iotrial: cannot write the stream on stdout: %s\n", strerror(-err));
	return EXIT_RUN;
}

void cli_stream_close(struct cli_stream *s)
{
	if (s->out)
		fclose(s->out);
	s->out = NULL;
}
