/* Loading a job file on every rank (see load.h): rank 0 reads it, every rank parses the same
 * text and plans it with rank 0's seed, and the ranks agree on each step's outcome. */
#include "cli/load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "engine/dist/dist.h"
#include "engine/plan/plan_room.h"
#include "lib/sha256.h"
#include "parsers/jobfile.h"

/* `path` from the current folder, as given (not resolved) but for trailing slashes, which
 * would double in the scratch folder's name; NULL without memory or a cwd. */
static char *absolute(const char *path)
{
	char *cwd = NULL, *out = NULL;
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	if (path[0] != '/' && !(cwd = getcwd(NULL, 0)))
		return NULL;
	if (asprintf(&out, "%s%s%.*s", cwd ? cwd : "", cwd ? "/" : "", (int)n, path) < 0)
		out = NULL;
	free(cwd);
	return out;
}

/* The folder ${scratch} names: under $TMPDIR, else the current folder; in a distributed
 * run one per rank (ranks on several hosts may share $TMPDIR, and their process ids may
 * coincide). The run creates it only when a job uses it, and removes it at the end. */
char *load_scratch_path(void)
{
	const char *base = getenv("TMPDIR");
	char *real, *out = NULL;
	int n;

	real = realpath(base && *base ? base : ".", NULL);
	/* A $TMPDIR that cannot be resolved (it does not exist, a file is on its way): the path
	 * as given, made absolute like any other, so that a run whose jobs name their targets
	 * still runs, and the planner refuses one that needs the scratch folder, naming it. */
	if (!real && base && *base)
		real = absolute(base);
	if (!real)
		return NULL;
	if (dist_size() > 1)
		n = asprintf(&out, "%s/iotrial-scratch.r%d.%ld", real, dist_rank(), (long)getpid());
	else
		n = asprintf(&out, "%s/iotrial-scratch.%ld", real, (long)getpid());
	if (n < 0)
		out = NULL;
	free(real);
	return out;
}

/* The worst (largest) of every rank's status, on every rank. */
int load_agree_max(int st)
{
	int n = dist_size(), worst = st, *all;

	if (n == 1)
		return st;
	if (!(all = calloc((size_t)n, sizeof(*all))))
		dist_abort(EXIT_RUN, "out of memory");
	if (dist_allgather(&st, all, sizeof(st)) < 0)
		dist_abort(EXIT_RUN, "cannot exchange a status between ranks");
	for (int r = 0; r < n; r++)
		worst = all[r] > worst ? all[r] : worst;
	free(all);
	return worst;
}

/* Print what a step found and agree on its outcome. Rank 0 prints its messages, which every
 * rank shares when all parsed the same text; another rank prints its own only when it
 * failed where rank 0 did not (its environment differs), each line naming it. Returns the
 * worst status of any rank. */
int load_settle(int st, struct diag *d)
{
	int n = dist_size(), worst = st, st0 = st, *all;

	if (n > 1) {
		if (!(all = calloc((size_t)n, sizeof(*all))))
			dist_abort(EXIT_RUN, "out of memory");
		if (dist_allgather(&st, all, sizeof(st)) < 0)
			dist_abort(EXIT_RUN, "cannot exchange a status between ranks");
		st0 = all[0];
		for (int r = 0; r < n; r++)
			worst = all[r] > worst ? all[r] : worst;
		free(all);
	}
	/* A failure with nothing to say: its message could not be allocated. */
	if (st && !d->n)
		fputs("iotrial: out of memory\n", stderr);
	if (dist_rank() == 0)
		diag_print(d, stderr);
	else if (st && !st0)
		for (size_t i = 0; i < d->n; i++)
			fprintf(stderr, "iotrial: rank %d (%s): %s\n", dist_rank(), dist_host(),
				d->msgs[i]);
	diag_release(d);
	return worst;
}

/* What every rank must agree on besides the build: the job text and the --set options.
 * 0 or -ENOMEM. */
static int job_hash(const char *text, size_t len, const struct spec_override *ov, size_t nov,
		    char hex[65])
{
	size_t n = len + 1;
	char *all, *o;

	for (size_t i = 0; i < nov; i++)
		n += strlen(ov[i].key) + strlen(ov[i].value) + 2;
	if (!(all = malloc(n)))
		return -ENOMEM;
	memcpy(all, text, len);
	o = all + len;
	*o++ = 0;
	for (size_t i = 0; i < nov; i++)
		o += sprintf(o, "%s=%s", ov[i].key, ov[i].value) + 1;
	sha256_hex(all, (size_t)(o - all), hex);
	free(all);
	return 0;
}

static uint64_t fresh_seed(void)
{
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), 0) != sizeof(s))
		s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	return s & ((1ull << 53) - 1); /* exact in every JSON reader */
}

/* Parse and plan one job file: rank 0 reads it, every rank parses the same text with its
 * own ${rank}, ${size}, ${host}, ${local_rank} and ${scratch}, and plans it with rank 0's
 * seed. Returns 0, or the exit status for the failure (the same on every rank). */
int load_job(const char *file, const struct spec_override *ov, size_t nov, const char *scratch,
	     struct exp_spec *s, struct plan *p)
{
	return load_job_seeded(file, ov, nov, scratch, fresh_seed(), s, p);
}

int load_job_seeded(const char *file, const struct spec_override *ov, size_t nov,
		    const char *scratch, uint64_t seed, struct exp_spec *s, struct plan *p)
{
	char rank[16], size[16], local[16], hash[65], why[768];
	struct expand_var builtins[] = {{"scratch", scratch},
					{"rank", rank},
					{"size", size},
					{"host", dist_host()},
					{"local_rank", local}};
	struct yp_options opt = {ov, nov, builtins, 5, NULL, NULL};
	struct diag d = {0};
	char *text = NULL;
	size_t len = 0;
	int ret, st, peers;

	snprintf(rank, sizeof(rank), "%d", dist_rank());
	snprintf(size, sizeof(size), "%d", dist_size());
	snprintf(local, sizeof(local), "%d", dist_local_rank());
	/* Rank 0 reads the file; the others get its bytes by broadcast. */
	ret = dist_rank() == 0 ? yp_read_file(file, &text, &len, &d) : 0;
	if ((st = load_settle(ret ? (ret == -ENOMEM ? EXIT_RUN : EXIT_USAGE) : 0, &d))) {
		free(text);
		return st;
	}
	if (dist_bcast_buf(&text, &len) < 0 || dist_bcast(&seed, sizeof(seed)) < 0)
		dist_abort(EXIT_RUN, "cannot receive the job file from rank 0");
	/* Without memory for the hash, an empty one: no other rank matches it, so every rank
	 * stops at the check, and this one says why after it. */
	if ((ret = job_hash(text, len, ov, nov, hash)) < 0)
		hash[0] = 0;
	peers = dist_check_peers(hash, why, sizeof(why));
	if (peers < 0 || ret < 0) {
		free(text);
		if (ret < 0) {
			fputs("iotrial: out of memory\n", stderr);
			return EXIT_RUN;
		}
		if (dist_rank() == 0)
			fprintf(stderr, "iotrial: %s\n", why);
		return EXIT_RUN;
	}
	ret = yp_load_string(file, text, len, &opt, s, &d);
	free(text);
	if ((st = load_settle(ret < 0 ? (ret == -ENOMEM ? EXIT_RUN : EXIT_USAGE) : 0, &d))) {
		if (ret == 0)
			spec_release(s);
		return st;
	}
	/* The plan is settled on every rank: a rank without memory fails there, not before. */
	memset(p, 0, sizeof(*p));
	ret = (s->scratch = strdup(scratch)) ? plan_build(s, scratch, seed, p, &d) : -ENOMEM;
	/* Each folder was checked for one file at a time; the files live together. (Here, not
	 * in plan_build: plan_room.c reads a built plan, so plan.c cannot call it.) */
	if (ret == 0)
		ret = plan_check_room(p, NULL, &d);
	if ((st = load_settle(ret ? (ret == PLAN_ESPEC ? EXIT_USAGE : EXIT_RUN) : 0, &d))) {
		plan_release(p);
		spec_release(s);
		return st;
	}
	return 0;
}
