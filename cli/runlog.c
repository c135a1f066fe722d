/* --log FILE (see runlog.h): key=value lines after a UTC timestamp, values quoted when they
 * hold a space, a quote, '=' or a control character, so `grep` and `awk` read them. */
#include "cli/runlog.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/results.h"

int runlog_open(struct runlog *l, const char *path)
{
	/* O_NONBLOCK: a FIFO no process reads is refused at once (ENXIO), where a blocking
	 * open would wait for a reader before the run, for ever. Writes then block as usual. */
	l->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0644);
	if (l->fd < 0 || fcntl(l->fd, F_SETFL, O_APPEND) < 0) {
		int err = errno;
		struct stat st;
		/* ENXIO is a socket's or a driverless device's too: say FIFO only of one. */
		bool fifo = err == ENXIO && stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
		fprintf(stderr, "iotrial: cannot open the log '%s': %s\n", path,
			fifo ? "a FIFO that no process reads" : strerror(err));
		if (l->fd >= 0)
			close(l->fd);
		l->fd = -1;
		return -err;
	}
	l->path = path;
	l->failed = false;
	return 0;
}

void runlog_close(struct runlog *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}

/* The wall clock `ns` (CLOCK_REALTIME) as RFC 3339 UTC with microseconds. */
static void put_time(FILE *f, const char *key, int64_t ns)
{
	time_t s = (time_t)(ns / 1000000000);
	struct tm tm;
	char buf[32];

	gmtime_r(&s, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(f, "%s%s%s.%06ldZ", key ? " " : "", key ? key : "", buf,
		(long)(ns % 1000000000 / 1000));
}

static void put_str(FILE *f, const char *key, const char *v)
{
	bool quote = !v || !*v || strpbrk(v, " \"=\\") != NULL;

	for (const char *c = v; c && *c && !quote; c++)
		quote = (unsigned char)*c < 0x20 || *c == 0x7f;
	fprintf(f, " %s=", key);
	if (!quote) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (const char *c = v ? v : ""; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if ((unsigned char)*c < 0x20 || *c == 0x7f)
			fprintf(f, "\\x%02x", (unsigned char)*c);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

static void put_num(FILE *f, const char *key, double v)
{
	if (isfinite(v))
		fprintf(f, " %s=%.9g", key, v);
	else
		fprintf(f, " %s=null", key);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Start a line: the time, the process id, the event. */
static FILE *line_begin(char **buf, size_t *len, const char *event, int64_t now)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		return NULL;
	put_time(f, NULL, now);
	fprintf(f, " pid=%ld event=%s", (long)getpid(), event);
	return f;
}

/* End the line and write it with one write(2) (O_APPEND: whole, after every line before it,
 * whoever wrote that); a write that fails or falls short is said once on stderr. */
static void line_end(struct runlog *l, FILE *f, char **buf, size_t *len)
{
	ssize_t w = -1;

	fputc('\n', f);
	if (fclose(f) == 0) {
		w = write(l->fd, *buf, *len);
		if (w >= 0 && (size_t)w != *len)
			errno = ENOSPC; /* a short write to a regular file: the disk is full */
	}
	if ((w < 0 || (size_t)w != *len) && !l->failed) {
		l->failed = true;
		fprintf(stderr, "iotrial: cannot write to the log '%s': %s\n", l->path,
			strerror(errno));
	}
	free(*buf);
}

/* One line for trial `index` of instance `inst` of `r`. */
static void on_trial_end(const struct results *r, size_t inst, uint32_t index, void *log)
{
	struct runlog *l = log;
	const struct instance_result *ir = &r->inst[inst];
	const struct trial_result *tr = &ir->trials[index];
	int64_t now = now_ns();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (l->fd < 0 || !(f = line_begin(&buf, &len, "trial", now)))
		return;
	put_str(f, "file", l->file);
	put_str(f, "experiment", r->experiment);
	put_str(f, "instance", ir->name);
	fprintf(f, " trial=%u warmup=%s", index, tr->warmup ? "true" : "false");
	/* The trial's span on the wall clock: it ended just now (its figures were merged a
	 * moment ago) and lasted end_ns - start_ns of the run's monotonic clock. */
	put_time(f, "start=", now - (int64_t)(tr->end_ns - tr->start_ns));
	put_time(f, "end=", now);
	put_num(f, "seconds", tr->seconds);
	fprintf(f, " bytes=%llu ios=%llu", (unsigned long long)tr->bytes,
		(unsigned long long)tr->ios);
	put_num(f, "bw_bytes", tr->bw_bytes);
	put_num(f, "iops", tr->iops);
	put_num(f, "lat_mean_ns", tr->lat.mean);
	put_num(f, "lat_p99_ns", tr->lat.p99);
	fprintf(f, " status=%s", tr->failed ? "failed" : "ok");
	if (tr->failed)
		put_str(f, "error", tr->error ? tr->error : "?");
	line_end(l, f, &buf, &len);
}

const struct run_observer runlog_observer = {.trial_end = on_trial_end};

void runlog_file(struct runlog *l, const char *event, const char *file, const char *dir, int status)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (l->fd < 0 || !(f = line_begin(&buf, &len, event, now_ns())))
		return;
	put_str(f, "file", file);
	if (dir)
		put_str(f, "folder", dir);
	if (status >= 0)
		fprintf(f, " exit_status=%d", status);
	line_end(l, f, &buf, &len);
}
