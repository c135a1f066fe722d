/* Per-I/O and per-interval logs (see reclog.h). Numbers are formatted by hand: snprintf
 * would cost more than the I/O on the null backend. */
#include "engine/io/reclog.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

void reclog_init(struct reclog *r, int fd, uint32_t trial, uint32_t worker, uint32_t rank)
{
	r->fd = fd;
	r->trial = trial;
	r->worker = worker;
	r->rank = rank;
	r->err = 0;
	r->len = 0; /* the buffer itself needs no clearing */
}

int reclog_flush(struct reclog *r)
{
	size_t off = 0;

	while (off < r->len && !r->err) {
		ssize_t w = write(r->fd, r->buf + off, r->len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			r->err = w < 0 ? -errno : -EIO;
		else
			off += (size_t)w;
	}
	r->len = 0;
	return r->err;
}

/* Room for one more line; false when logging has stopped. */
static bool room(struct reclog *r, size_t need)
{
	if (r->fd < 0 || r->err)
		return false;
	if (r->len + need > RECLOG_BUF)
		reclog_flush(r);
	return !r->err;
}

void reclog_record(struct reclog *r, uint64_t seq, uint64_t offset, uint64_t bytes,
		   uint64_t start_ns, uint64_t latency_ns)
{
	char *p;

	if (!room(r, 8 * 21))
		return;
	p = r->buf + r->len;
	p = put_u64(p, r->trial);
	*p++ = ',';
	p = put_u64(p, r->worker);
	*p++ = ',';
	p = put_u64(p, seq);
	*p++ = ',';
	p = put_u64(p, offset);
	*p++ = ',';
	p = put_u64(p, bytes);
	*p++ = ',';
	p = put_u64(p, start_ns);
	*p++ = ',';
	p = put_u64(p, latency_ns);
	*p++ = ',';
	p = put_u64(p, r->rank);
	*p++ = '\n';
	r->len = (size_t)(p - r->buf);
}

void reclog_interval(struct reclog *r, uint64_t start_ns, uint64_t end_ns, uint64_t bytes,
		     uint64_t ios, double lat_sum_ns)
{
	double secs = (double)(end_ns - start_ns) / 1e9;
	int n;

	if (!room(r, 256))
		return;
	n = snprintf(r->buf + r->len, RECLOG_BUF - r->len, "%u,%u,%llu,%llu,%llu,%llu,%.6g,%.6g,",
		     r->trial, r->worker, (unsigned long long)start_ns, (unsigned long long)end_ns,
		     (unsigned long long)bytes, (unsigned long long)ios,
		     secs > 0 ? (double)bytes / secs : 0.0, secs > 0 ? (double)ios / secs : 0.0);
	if (n > 0)
		r->len += (size_t)n;
	/* An interval with no I/O has no mean latency: an empty field, like any unmeasured. */
	n = ios ? snprintf(r->buf + r->len, RECLOG_BUF - r->len, "%.1f,%u\n",
			   lat_sum_ns / (double)ios, r->rank)
		: snprintf(r->buf + r->len, RECLOG_BUF - r->len, ",%u\n", r->rank);
	if (n > 0)
		r->len += (size_t)n;
}
