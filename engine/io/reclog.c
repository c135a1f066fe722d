/* Per-I/O and per-interval logs (see reclog.h). A record line is built by hand, eight digits
 * at a time, its fixed parts (trial and worker, rank, a repeated size) formatted once and
 * its seq mostly the last one's text plus one: snprintf, or even one division per digit,
 * would cost more than the I/O on the null backend (docs/performance.md, "The record
 * log"). */
#include "engine/io/reclog.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The eight decimal digits of v < 10^8, as byte values 0-9, the first in the lowest byte:
 * the halves, quarters and eighths of the number split in parallel lanes of one word
 * (x / 100 as x * 10486 >> 20 and x / 10 as x * 103 >> 10, exact in these ranges). */
static inline uint64_t digits8(uint32_t v)
{
	uint64_t x = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
	uint64_t y = ((x * 10486) >> 20) & 0x0000007f0000007full;

	x = y | (x - y * 100) << 16;
	y = ((x * 103) >> 10) & 0x000f000f000f000full;
	return y | (x - y * 10) << 8;
}

/* The 8 bytes of x at p, lowest first, in one store. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LOW_BYTE_FIRST(x) __builtin_bswap64(x)
#else
#define LOW_BYTE_FIRST(x) (x)
#endif
static inline void put8(char *p, uint64_t x)
{
	x = LOW_BYTE_FIRST(x);
	memcpy(p, &x, 8);
}

/* v < 10^8 without leading zeros. Writes 8 bytes; returns the end of the number. */
static inline char *put_short(char *p, uint32_t v)
{
	uint64_t x = digits8(v);
	/* Leading zeros are the low zero bytes; at least one digit stays. */
	unsigned lz = (unsigned)__builtin_ctzll(x | 1ull << 56) / 8;

	put8(p, (x + 0x3030303030303030ull) >> (8 * lz));
	return p + 8 - lz;
}

/* v in decimal at p, in at most three pieces of eight digits; returns the end. It may write
 * up to 7 bytes past the end (RECLOG_LINE_MAX leaves room). */
static inline char *put_u64(char *p, uint64_t v)
{
	if (v < 100000000ull)
		return put_short(p, (uint32_t)v);
	if (v < 10000000000000000ull) {
		p = put_short(p, (uint32_t)(v / 100000000ull));
	} else {
		p = put_short(p, (uint32_t)(v / 10000000000000000ull));
		v %= 10000000000000000ull;
		put8(p, digits8((uint32_t)(v / 100000000ull)) + 0x3030303030303030ull);
		p += 8;
	}
	put8(p, digits8((uint32_t)(v % 100000000ull)) + 0x3030303030303030ull);
	return p + 8;
}

/* `s` ("trial,worker," or ",rank\n") into a fixed field, NUL-padded. */
static uint8_t put_fixed(char *field, size_t size, const char *s)
{
	size_t n = strlen(s);

	memset(field, 0, size);
	memcpy(field, s, n < size ? n : size);
	return (uint8_t)n;
}

/* What every record line of a worker's trial starts and ends with, and the bytes field of
 * the last size (a job's I/Os mostly share one): formatted once, copied whole per line. */
static void fixed_parts(struct reclog *r)
{
	char tmp[64], *e; /* a number may write 8 bytes past its end */

	e = put_u64(tmp, r->trial);
	*e++ = ',';
	e = put_u64(e, r->worker);
	*e++ = ',';
	*e = 0;
	r->head_len = put_fixed(r->head, sizeof(r->head), tmp);
	tmp[0] = ',';
	e = put_u64(tmp + 1, r->rank);
	*e++ = '\n';
	*e = 0;
	r->tail_len = put_fixed(r->tail, sizeof(r->tail), tmp);
	r->last_bytes = 0;
	r->bytes_len = put_fixed(r->bytes, sizeof(r->bytes), "0,");
	r->seq_len = 0;
}

/* The seq field of `seq`: I/Os mostly complete in the order they were issued, so it is
 * the last record's field plus one where it can be (a carry through its trailing nines),
 * else formatted. */
static inline void seq_field(struct reclog *r, uint64_t seq)
{
	if (r->seq_len && seq == r->last_seq + 1 && seq) {
		int i = r->seq_len - 2; /* the last digit, before the comma */

		while (i >= 0 && r->seq[i] == '9')
			r->seq[i--] = '0';
		if (i >= 0) {
			r->seq[i]++;
		} else {
			memmove(r->seq + 1, r->seq, r->seq_len++);
			r->seq[0] = '1';
		}
	} else {
		char *e = put_u64(r->seq, seq);
		*e++ = ',';
		r->seq_len = (uint8_t)(e - r->seq);
	}
	r->last_seq = seq;
}

void reclog_init(struct reclog *r, int fd, uint32_t trial, uint32_t worker, uint32_t rank)
{
	r->fd = fd;
	r->trial = trial;
	r->worker = worker;
	r->rank = rank;
	r->err = 0;
	r->len = 0; /* the buffer itself needs no clearing */
	fixed_parts(r);
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
static inline bool room(struct reclog *r, size_t need)
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

	if (!room(r, RECLOG_LINE_MAX))
		return;
	if (bytes != r->last_bytes) {
		char *e = put_u64(r->bytes, bytes);
		*e++ = ',';
		r->bytes_len = (uint8_t)(e - r->bytes);
		r->last_bytes = bytes;
	}
	/* The fixed parts are copied whole (a constant size the compiler inlines) and the line
	 * goes on after their real length: RECLOG_LINE_MAX leaves room for the overhang. */
	p = r->buf + r->len;
	memcpy(p, r->head, sizeof(r->head));
	p += r->head_len;
	seq_field(r, seq);
	memcpy(p, r->seq, sizeof(r->seq));
	p += r->seq_len;
	p = put_u64(p, offset);
	*p++ = ',';
	memcpy(p, r->bytes, sizeof(r->bytes));
	p += r->bytes_len;
	p = put_u64(p, start_ns);
	*p++ = ',';
	p = put_u64(p, latency_ns);
	memcpy(p, r->tail, sizeof(r->tail));
	p += r->tail_len;
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
