/* The checks of iotrial run --resume DIR (see resume.h): nothing in DIR is created, changed or
 * removed until they all pass. */
#include "cli/resume.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/outdir.h"
#include "cli/outlock.h"
#include "lib/dirfile.h"
#include "lib/version.h"
#include "model/results_json.h"

static int refuse(const char *dir, const char *why)
{
	fprintf(stderr, "iotrial: cannot resume from '%s': %s\n", dir, why);
	return EXIT_USAGE;
}

/* DIR/results.json opened for reading (dirfile_open's checks), or -errno. */
static int open_checkpoint(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	if (dfd < 0)
		return -errno;
	fd = dirfile_open(dfd, "results.json", O_RDONLY, 0);
	close(dfd);
	return fd;
}

int cli_resume_load(const char *dir, struct results *from, int *fdp)
{
	struct diag d = {0};
	struct stat st;
	char *path = NULL, why[160];
	long holder;
	int ret, fd;

	memset(from, 0, sizeof(*from));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return refuse(dir, "no such folder");
	if ((holder = outlock_holder(dir)) != 0) {
		snprintf(why, sizeof(why), "it is in use by another iotrial run (pid %ld)", holder);
		return refuse(dir, why);
	}
	/* A .iotrial.lock or results.json that is not a file iotrial made is looked at, never
	 * opened: a FIFO would hold the run, a device would run its driver's open. */
	if (outlock_foreign(dir))
		return refuse(dir, "it holds a '" OUTLOCK_NAME "' that iotrial did not make");
	if ((fd = open_checkpoint(dir)) < 0)
		return fd == -ENOENT ? refuse(dir, "no checkpoint in it (results.json)")
		       : dirfile_refused(fd)
			   ? refuse(
				 dir,
				 "its results.json is not a regular file with one link (a symbolic link, a FIFO, a device or a hard link): not a checkpoint iotrial wrote")
			   : refuse(dir, strerror(-fd));
	if (asprintf(&path, "%s/results.json", dir) < 0) {
		close(fd);
		fputs("iotrial: out of memory\n", stderr);
		return EXIT_RUN;
	}
	ret = rj_load_fd(path, fd, from, &d);
	free(path);
	/* A file cut short is a syntax error: refused whole, never half read. One line: the
	 * first problem. */
	if (ret < 0) {
		ret = ret == -ENOMEM ? EXIT_RUN : refuse(dir, d.n ? d.msgs[0] : strerror(-ret));
		diag_release(&d);
		close(fd);
		return ret;
	}
	diag_release(&d);
	if (strcmp(from->tool_version, IOTRIAL_VERSION)) {
		snprintf(
		    why, sizeof(why),
		    "its checkpoint was written by iotrial %.40s; this is iotrial %s, and a run goes on with the version that began it",
		    from->tool_version, IOTRIAL_VERSION);
		ret = refuse(dir, why);
	}
	if (ret) {
		results_release(from);
		close(fd);
	} else {
		*fdp = fd;
	}
	return ret;
}

bool cli_resume_same(const struct outdir *od, int fd)
{
	struct stat now, read;

	return dirfile_stat(od->fd, "results.json", &now) == 0 && fstat(fd, &read) == 0 &&
	       now.st_dev == read.st_dev && now.st_ino == read.st_ino;
}

int cli_resume_complete(const struct cli_args *args, const struct results *from, int fd)
{
	struct outdir od;
	size_t failed = 0;
	int ret;

	for (size_t i = 0; i < from->ninst; i++)
		for (size_t t = 0; !from->inst[i].background && t < from->inst[i].ntrials; t++)
			failed += from->inst[i].trials[t].seq && from->inst[i].trials[t].failed;
	if ((ret = outdir_resume(&od, args->resume)) < 0) {
		outdir_release(&od);
		return ret == -EBUSY ? EXIT_USAGE : EXIT_RUN;
	}
	if (!cli_resume_same(&od, fd)) {
		outdir_release(&od);
		return CLI_RESUME_AGAIN;
	}
	fprintf(
	    stderr,
	    "iotrial: the run in '%s' is complete: no trial runs again; result files it lacks are written\n",
	    args->resume);
	ret = cli_write_missing(from, &od, &args->formats, args->quiet);
	outdir_release(&od);
	return ret > 0 ? ret : failed || cli_logs_cut(from) ? EXIT_RUN : 0;
}

bool cli_logs_cut(const struct results *r)
{
	for (size_t i = 0; i < r->ninst; i++)
		for (size_t t = 0; t < r->inst[i].ntrials; t++)
			if (r->inst[i].trials[t].log_error)
				return true;
	return false;
}

static const struct spec_override *find(const struct spec_override *ov, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ov[i].key, key))
			return &ov[i];
	return NULL;
}

int cli_resume_match(const char *dir, const struct results *from, const struct exp_spec *s)
{
	char why[512];

	if (strcmp(from->job_sha256, s->sha256)) {
		snprintf(
		    why, sizeof(why),
		    "job file '%.200s' is not the one its run began with (sha256 %.12s..., the checkpoint's %.12s...)",
		    s->path, s->sha256, from->job_sha256);
		return refuse(dir, why);
	}
	for (size_t i = 0; i < from->noverrides; i++) {
		const struct spec_override *now =
		    find(s->overrides, s->noverrides, from->overrides[i].key);
		if (!now)
			snprintf(
			    why, sizeof(why),
			    "its run began with --set %.100s=%.100s; this one has no --set %.100s",
			    from->overrides[i].key, from->overrides[i].value,
			    from->overrides[i].key);
		else if (strcmp(now->value, from->overrides[i].value))
			snprintf(
			    why, sizeof(why),
			    "its run began with --set %.100s=%.100s; this one has --set %.100s=%.100s",
			    from->overrides[i].key, from->overrides[i].value, now->key, now->value);
		if (!now || strcmp(now->value, from->overrides[i].value))
			return refuse(dir, why);
	}
	for (size_t i = 0; i < s->noverrides; i++)
		if (!find(from->overrides, from->noverrides, s->overrides[i].key)) {
			snprintf(
			    why, sizeof(why),
			    "this run has --set %.100s=%.100s; the one it would resume had no such option",
			    s->overrides[i].key, s->overrides[i].value);
			return refuse(dir, why);
		}
	return 0;
}
