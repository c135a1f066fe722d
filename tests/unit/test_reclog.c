/*
 * Unit tests for engine/io/reclog and reclog_writer: record lines are what snprintf would
 * write for every size of number (each digit count, the eight-digit pieces' edges, 0 and
 * UINT64_MAX), also where a seq is the last one's plus one (every carry, the wrap to 0); a
 * writer thread hands back every record of full and partial blocks, in order; a write
 * error reaches the worker.
 */
#include "engine/io/reclog.h"
#include "engine/io/reclog_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* The file's contents (NUL-terminated, caller frees). */
static char *slurp(int fd, size_t *len)
{
	off_t n = lseek(fd, 0, SEEK_END);
	char *s = malloc((size_t)n + 1);

	assert_non_null(s);
	assert_int_equal(pread(fd, s, (size_t)n, 0), n);
	s[n] = 0;
	*len = (size_t)n;
	return s;
}

static int tmp_fd(void)
{
	FILE *f = tmpfile();
	int fd;

	assert_non_null(f);
	fd = dup(fileno(f));
	fclose(f);
	return fd;
}

/* Line i of the log `got` (len bytes), at *at, is `want` (n bytes): then *at moves past it. */
static void expect_line(const char *got, size_t len, size_t *at, size_t i, const char *want, int n)
{
	assert_true(*at + (size_t)n <= len);
	if (memcmp(got + *at, want, (size_t)n))
		fail_msg("line %zu: got '%.*s', want '%s'", i, n, got + *at, want);
	*at += (size_t)n;
}

/* Values around every power of ten, and the extremes. */
static size_t edge_values(uint64_t *v, size_t max)
{
	size_t n = 0;
	uint64_t p = 1;

	v[n++] = 0;
	v[n++] = UINT64_MAX;
	v[n++] = UINT64_MAX - 1;
	for (int d = 0; d < 20 && n + 3 <= max; d++, p *= 10) {
		v[n++] = p;
		v[n++] = p - 1;
		v[n++] = p + 1;
		if (d < 19)
			v[n++] = p * 10 - 1;
	}
	return n;
}

static void test_record_lines_match_snprintf(void **state)
{
	static struct reclog r;
	uint64_t v[128];
	size_t nv = edge_values(v, 120), len, at = 0;
	int fd = tmp_fd();
	char *got, want[256];

	reclog_init(&r, fd, 4294967295u, 7, 12);
	for (size_t i = 0; i < nv; i++)
		reclog_record(&r, v[i], v[(i + 1) % nv], v[(i + 2) % nv], v[(i + 3) % nv],
			      v[(i + 4) % nv]);
	assert_int_equal(reclog_flush(&r), 0);
	got = slurp(fd, &len);
	for (size_t i = 0; i < nv; i++) {
		int n = snprintf(want, sizeof(want), "4294967295,7,%llu,%llu,%llu,%llu,%llu,12\n",
				 (unsigned long long)v[i], (unsigned long long)v[(i + 1) % nv],
				 (unsigned long long)v[(i + 2) % nv],
				 (unsigned long long)v[(i + 3) % nv],
				 (unsigned long long)v[(i + 4) % nv]);
		expect_line(got, len, &at, i, want, n);
	}
	assert_int_equal(at, len);
	free(got);
	close(fd);
}

/* Consecutive seqs across every carry (9 to 10, ... 10^19 - 1 to 10^19), the wrap from
 * UINT64_MAX to 0, and steps back and forward: each line as snprintf writes it. */
static void test_record_seq_increments_match_snprintf(void **state)
{
	static struct reclog r;
	uint64_t seq[128], p = 1;
	size_t n = 0, len, at = 0;
	int fd = tmp_fd();
	char *got, want[256];

	for (int d = 0; d < 20; d++, p *= 10) {
		if (p >= 2)
			seq[n++] = p - 2;
		seq[n++] = p - 1;
		seq[n++] = p;
		seq[n++] = p + 1;
	}
	seq[n++] = 5; /* back */
	seq[n++] = 6;
	seq[n++] = UINT64_MAX - 1;
	seq[n++] = UINT64_MAX;
	seq[n++] = 0;
	seq[n++] = 1;
	reclog_init(&r, fd, 3, 0, 0);
	for (size_t i = 0; i < n; i++)
		reclog_record(&r, seq[i], 0, 4096, 0, 1);
	assert_int_equal(reclog_flush(&r), 0);
	got = slurp(fd, &len);
	for (size_t i = 0; i < n; i++) {
		int k = snprintf(want, sizeof(want), "3,0,%llu,0,4096,0,1,0\n",
				 (unsigned long long)seq[i]);
		expect_line(got, len, &at, i, want, k);
	}
	assert_int_equal(at, len);
	free(got);
	close(fd);
}

static void test_writer_keeps_every_record_in_order(void **state)
{
	static struct reclog_writer w;
	const unsigned n = RECLOG_BLOCK * RECLOG_BLOCKS * 3 + 17;
	int fd = tmp_fd();
	size_t len, lines = 0;
	char *got, *p;

	assert_int_equal(reclog_writer_start(&w, fd, 1, 2, 0), 0);
	for (unsigned i = 0; i < n; i++)
		reclog_writer_add(&w, i, (uint64_t)i * 4096, i % 3 ? 4096 : 65536, i * 10ull, 5);
	assert_int_equal(reclog_writer_finish(&w), 0);
	reclog_writer_release(&w);
	got = slurp(fd, &len);
	for (p = got; *p; lines++) {
		char want[128];
		int k = snprintf(want, sizeof(want), "1,2,%zu,%llu,%u,%llu,5,0\n", lines,
				 (unsigned long long)lines * 4096, lines % 3 ? 4096u : 65536u,
				 (unsigned long long)lines * 10);
		if (strncmp(p, want, (size_t)k))
			fail_msg("line %zu: got '%.*s', want '%s'", lines, k, p, want);
		p += k;
	}
	assert_int_equal(lines, n);
	free(got);
	close(fd);
}

/* A descriptor that cannot be written: the error comes back from finish. */
static void test_writer_reports_a_write_error(void **state)
{
	static struct reclog_writer w;
	int fd = open("/dev/null", O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(reclog_writer_start(&w, fd, 0, 0, 0), 0);
	for (unsigned i = 0; i < RECLOG_BLOCK * RECLOG_BLOCKS * 40; i++)
		reclog_writer_add(&w, i, 0, 4096, 0, 1);
	assert_int_equal(reclog_writer_finish(&w), -EBADF);
	assert_int_equal(reclog_writer_finish(&w), -EBADF);
	reclog_writer_release(&w);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_record_lines_match_snprintf),
	    cmocka_unit_test(test_record_seq_increments_match_snprintf),
	    cmocka_unit_test(test_writer_keeps_every_record_in_order),
	    cmocka_unit_test(test_writer_reports_a_write_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
