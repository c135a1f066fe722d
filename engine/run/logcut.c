/* Record and interval logs cut back (see logcut.h): for a resumed run, read line by line from
 * the front, cut at the first line that is not a kept trial's; after a write cut short, read
 * from the end back to the last end of line. */
#include "engine/run/logcut.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK 65536

/* The unsigned decimal at the front of `s` (`len` bytes) into *v, ended by a comma or the
 * line's end. Returns the digits read, 0 when there is no number there. */
static size_t number(const char *s, size_t len, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9' && *v < UINT32_MAX * 1000ull; i++)
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	return i < len && s[i] != ',' ? 0 : i;
}

/* What an interval line (INTLOG_HEADER) counts of its trial's I/Os: its 6th field, ios. */
static uint64_t interval_ios(const char *line, size_t len)
{
	uint64_t v = 0;

	for (int f = 0; f < 5; f++) {
		const char *c = memchr(line, ',', len);
		if (!c)
			return 0;
		len -= (size_t)(c - line) + 1;
		line = c + 1;
	}
	return number(line, len, &v) ? v : 0;
}

/* Is `line` (its first field the trial's index) a line of a trial `ir` keeps? What it counts
 * of that trial's I/Os (`kind`) added to ios[index], when given. */
static bool kept_line(const char *line, size_t len, const struct instance_result *ir,
		      enum logcut_kind kind, uint64_t *ios)
{
	uint64_t t;
	size_t i = number(line, len, &t);

	if (!(i > 0 && i < len && t < ir->ntrials && ir->trials[t].seq))
		return false;
	if (ios)
		ios[t] += kind == LOGCUT_RECORDS ? 1 : interval_ios(line, len);
	return true;
}

int logcut_keep(int fd, const struct instance_result *ir, enum logcut_kind kind, uint64_t *ios)
{
	char *buf = malloc(CHUNK), *nl;
	off_t base = 0, cut = 0; /* the file offsets of buf[0] and of the cut */
	size_t start = 0, have = 0;
	bool header = true;
	ssize_t n;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (!(nl = memchr(buf + start, '\n', have - start))) {
			memmove(buf, buf + start, have - start);
			base += (off_t)start;
			have -= start;
			start = 0;
			/* A line longer than the buffer is no line of iotrial's: cut there. */
			if (have == CHUNK)
				break;
			do
				n = pread(fd, buf + have, CHUNK - have, base + (off_t)have);
			while (n < 0 && errno == EINTR);
			if (n < 0)
				err = -errno;
			if (n <= 0)
				break;
			have += (size_t)n;
			continue;
		}
		if (!header && !kept_line(buf + start, (size_t)(nl - buf) - start, ir, kind, ios))
			break;
		header = false;
		start = (size_t)(nl - buf) + 1;
		cut = base + (off_t)start;
	}
	free(buf);
	if (err == 0 && ftruncate(fd, cut) < 0)
		err = -errno;
	return err ? err : cut == 0;
}

int logcut_missing(struct instance_result *ir, const uint64_t *ios)
{
	int n = 0;

	for (size_t t = 0; t < ir->ntrials; t++) {
		struct trial_result *tr = &ir->trials[t];
		/* Every I/O a trial measured is a line of its record log and is counted in one
		 * of its interval lines, so a log cut inside the trial's lines counts fewer. One
		 * whose log was already cut short says so already. More (lines added by hand) is
		 * no measurement lost. */
		if (!tr->seq || ios[t] >= tr->ios || tr->log_error)
			continue;
		if (!(tr->log_error = strdup(LOGCUT_LOST)))
			return -ENOMEM;
		n++;
	}
	return n;
}

int logcut_partial(int fd)
{
	char buf[4096];
	struct stat st;
	off_t end;

	if (fstat(fd, &st) < 0)
		return -errno;
	for (end = st.st_size; end > 0;) {
		size_t n = end < (off_t)sizeof(buf) ? (size_t)end : sizeof(buf);
		ssize_t got;
		char *nl;

		do
			got = pread(fd, buf, n, end - (off_t)n);
		while (got < 0 && errno == EINTR);
		if (got < 0)
			return -errno;
		if (got != (ssize_t)n)
			return -EIO; /* the file shrank under us */
		if ((nl = memrchr(buf, '\n', n))) {
			end -= (off_t)n - (nl - buf) - 1;
			return end == st.st_size || ftruncate(fd, end) == 0 ? 0 : -errno;
		}
		end -= (off_t)n;
	}
	return 0; /* not even a whole header: no line to keep apart */
}
