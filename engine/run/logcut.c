/* Record and interval logs cut back (see logcut.h): for a resumed run, read line by line from
 * the front, cut at the first line that is not a kept trial's; after a write cut short, read
 * from the end back to the last end of line. */
#include "engine/run/logcut.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK 65536

/* Is `line` (its first field the trial's index) a line of a trial `ir` keeps? Its index
 * marked in `seen`, when given. */
static bool kept_line(const char *line, size_t len, const struct instance_result *ir, bool *seen)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < len && line[i] >= '0' && line[i] <= '9' && t < UINT32_MAX; i++)
		t = t * 10 + (uint64_t)(line[i] - '0');
	if (!(i > 0 && i < len && line[i] == ',' && t < ir->ntrials && ir->trials[t].seq))
		return false;
	if (seen)
		seen[t] = true;
	return true;
}

int logcut_keep(int fd, const struct instance_result *ir, bool *seen)
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
		if (!header && !kept_line(buf + start, (size_t)(nl - buf) - start, ir, seen))
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

int logcut_missing(struct instance_result *ir, const bool *seen)
{
	int n = 0;

	for (size_t t = 0; t < ir->ntrials; t++) {
		struct trial_result *tr = &ir->trials[t];
		/* A trial that moved data wrote a line of each log (its last interval, however
		 * short); one whose log was already cut short says so already. */
		if (!tr->seq || !tr->ios || seen[t] || tr->log_error)
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
