/* What every transport of the distributed layer shares (see dist.h): variable-length
 * broadcast, the launch check and the check that all ranks run the same iotrial on the
 * same job, built on the transport's primitives. */
#include "engine/dist/dist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/stats/hist.h"
#include "lib/version.h"

static long run_id;

long dist_run_id(void)
{
	return run_id ? run_id : (long)getpid();
}

int dist_share_run_id(void)
{
	int64_t id = (int64_t)getpid();
	int ret = dist_bcast(&id, sizeof(id));

	if (ret == 0)
		run_id = (long)id;
	return ret;
}

int dist_bcast_buf(char **buf, size_t *len)
{
	uint64_t n[2] = {*buf ? 1 : 0, *len};
	int ret;

	if (dist_size() == 1)
		return 0;
	if ((ret = dist_bcast(n, sizeof(n))) < 0)
		return ret;
	if (dist_rank() != 0) {
		*buf = NULL;
		*len = (size_t)n[1];
		if (!n[0])
			return 0;
		/* One byte more, NUL: text stays a string. The other ranks are already in the
		 * broadcast: without memory there is nothing to agree on, only to stop. */
		if (!(*buf = calloc(1, (size_t)n[1] + 1)))
			dist_abort(1, "out of memory for %llu bytes from rank 0",
				   (unsigned long long)n[1]);
	}
	return n[0] ? dist_bcast(*buf, (size_t)n[1]) : 0;
}

int dist_check_launch(char *why, size_t len)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
					   "SLURM_STEP_NUM_TASKS", NULL};

	if (dist_size() > 1)
		return 0;
	for (size_t i = 0; vars[i]; i++) {
		const char *v = getenv(vars[i]);
		char *end;
		long n = v ? strtol(v, &end, 10) : 0;
		if (!v || *end || n <= 1)
			continue;
		if (!strcmp(dist_transport(), "serial"))
			snprintf(
			    why, len,
			    "launched as one of %ld processes (%s=%s), but this iotrial is a serial build: each process would run alone as rank 0 and write the same results; build it with make MPI=1, or run it without a launcher",
			    n, vars[i], v);
		else
			snprintf(
			    why, len,
			    "launched as one of %ld processes (%s=%s), but %s sees only this one: the launcher belongs to another MPI than the one iotrial was built with",
			    n, vars[i], v, dist_transport());
		return -EINVAL;
	}
	return 0;
}

/* What must be the same on every rank: the results merge histograms bucket by bucket and
 * assume every rank ran the same plan. */
struct peer {
	char version[16];
	uint32_t hist_nbuckets, hist_sub_bits, hist_exact_bits, hist_bytes;
	char transport[64];
	char hash[65];
	char host[DIST_HOST_MAX];
};

static void peer_of(struct peer *p, const char *hash)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->version, sizeof(p->version), "%s", IOTRIAL_VERSION);
	p->hist_nbuckets = HIST_NBUCKETS;
	p->hist_sub_bits = HIST_SUB_BITS;
	p->hist_exact_bits = HIST_EXACT_BITS;
	p->hist_bytes = (uint32_t)sizeof(struct hist);
	snprintf(p->transport, sizeof(p->transport), "%s", dist_transport());
	snprintf(p->hash, sizeof(p->hash), "%s", hash ? hash : "");
	snprintf(p->host, sizeof(p->host), "%s", dist_host());
}

int dist_check_peers(const char *hash, char *why, size_t len)
{
	int n = dist_size(), ret;
	struct peer me, *all;

	if (n == 1)
		return 0;
	peer_of(&me, hash);
	if (!(all = calloc((size_t)n, sizeof(*all))))
		dist_abort(1, "out of memory");
	if ((ret = dist_allgather(&me, all, sizeof(me))) < 0) {
		free(all);
		snprintf(why, len, "cannot exchange versions between ranks");
		return ret;
	}
	ret = 0;
	for (int r = 1; r < n && !ret; r++) {
		const struct peer *a = &all[0], *b = &all[r];
		const char *what = NULL;
		char va[96], vb[96];
		if (strcmp(a->version, b->version)) {
			what = "iotrial version";
			snprintf(va, sizeof(va), "%s", a->version);
			snprintf(vb, sizeof(vb), "%s", b->version);
		} else if (a->hist_nbuckets != b->hist_nbuckets ||
			   a->hist_sub_bits != b->hist_sub_bits ||
			   a->hist_exact_bits != b->hist_exact_bits ||
			   a->hist_bytes != b->hist_bytes) {
			what = "histogram layout (buckets, sub-bucket bits, exact bits, bytes)";
			snprintf(va, sizeof(va), "%u/%u/%u/%u", a->hist_nbuckets, a->hist_sub_bits,
				 a->hist_exact_bits, a->hist_bytes);
			snprintf(vb, sizeof(vb), "%u/%u/%u/%u", b->hist_nbuckets, b->hist_sub_bits,
				 b->hist_exact_bits, b->hist_bytes);
		} else if (strcmp(a->transport, b->transport)) {
			what = "transport";
			snprintf(va, sizeof(va), "%s", a->transport);
			snprintf(vb, sizeof(vb), "%s", b->transport);
		} else if (strcmp(a->hash, b->hash)) {
			what = "job file and --set options (sha256)";
			snprintf(va, sizeof(va), "%.12s...", a->hash);
			snprintf(vb, sizeof(vb), "%.12s...", b->hash);
		}
		if (what) {
			snprintf(
			    why, len,
			    "ranks disagree: rank %d (%s) has %s %s, rank 0 (%s) has %s; every rank must run the same iotrial on the same job",
			    r, b->host, what, vb, a->host, va);
			ret = -EINVAL;
		}
	}
	free(all);
	return ret;
}
