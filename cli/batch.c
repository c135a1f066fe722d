/* A queue of job files (see batch.h): the folder names, the batch folder and its lock, the
 * result folders claimed up front (so a queue never stops at its tenth file on a folder it
 * could have refused at the start), and batch.json. */
#include "cli/batch.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "engine/dist/dist.h"
#include "lib/dirfile.h"
#include "lib/version.h"
#include "model/rfield.h"

static void utc_now(char buf[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The folder name of job file `path`: its last component without .yaml or .yml, each byte
 * that is not UTF-8 as U+FFFD, so that the folder is the one batch.json names (JSON text is
 * UTF-8): a reader of batch.json finds it. */
static char *folder_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *raw, *name = NULL;
	json_t *utf8;
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".yaml"))
		len -= 5;
	else if (len > 4 && !strcmp(base + len - 4, ".yml"))
		len -= 4;
	if (!(raw = strndup(base, len)))
		return NULL;
	if ((utf8 = rf_json_str(raw)))
		name = strdup(json_string_value(utf8));
	json_decref(utf8);
	free(raw);
	return name;
}

int batch_init(struct batch *b, char **files, size_t n)
{
	int ret = 0;

	*b = (struct batch){.dir_fd = -1, .own = OUTDIR_INIT, .exit_status = -1};
	if (!(b->e = calloc(n, sizeof(*b->e))))
		return -ENOMEM;
	b->n = n;
	for (size_t i = 0; i < n; i++) {
		struct batch_entry *e = &b->e[i];
		e->job_file = files[i];
		e->od = (struct outdir)OUTDIR_INIT;
		e->exit_status = -1;
		if (!(e->name = folder_name(files[i])))
			return -ENOMEM;
		/* Its result folder sits beside batch.json: it must be a plain, visible name, and
		 * one that fits once each stray byte is U+FFFD (three bytes). */
		if (strlen(e->name) > NAME_MAX) {
			fprintf(
			    stderr,
			    "iotrial: job file '%s' would give its results a folder name of %zu bytes (each byte that is not UTF-8 taking 3), longer than a file name can be (%d); rename the file\n",
			    files[i], strlen(e->name), NAME_MAX);
			ret = -EINVAL;
		} else if (!*e->name || e->name[0] == '.' || !strcmp(e->name, BATCH_FILE)) {
			fprintf(
			    stderr,
			    "iotrial: job file '%s' would give its results the folder name '%s' in the batch folder; rename the file\n",
			    files[i], e->name);
			ret = -EINVAL;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(b->e[j].name, e->name)) {
				fprintf(
				    stderr,
				    "iotrial: job files '%s' and '%s' would share the result folder '%s' (a folder per file name, without .yaml): rename one, or run them apart\n",
				    b->e[j].job_file, files[i], e->name);
				ret = -EINVAL;
				break;
			}
	}
	return ret;
}

/* Lock the batch folder against a second batch in it (flock on the folder itself: nothing
 * is written there for it). */
static int lock_dir(struct batch *b)
{
	b->dir_fd = open(b->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (b->dir_fd < 0 || flock(b->dir_fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;
		if (err == EWOULDBLOCK)
			fprintf(
			    stderr,
			    "iotrial: batch folder '%s' is in use by another iotrial run: wait for it to end, or choose another folder\n",
			    b->dir);
		else
			fprintf(stderr, "iotrial: cannot open batch folder '%s': %s\n", b->dir,
				strerror(err));
		return -err;
	}
	return 0;
}

/* The batch folder: -o DIR, or a new results/batch-<UTC time>[-N]. */
static int make_dir(struct batch *b, const char *dir)
{
	char stamp[40];
	time_t t = time(NULL);
	struct tm tm;
	int ret;

	if (dir) {
		if ((ret = outdir_mkdirs(dir)) < 0) {
			fprintf(stderr, "iotrial: cannot create batch folder '%s': %s\n", dir,
				strerror(-ret));
			return ret;
		}
		return (b->dir = strdup(dir)) ? 0 : -ENOMEM;
	}
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "batch-%Y%m%dT%H%M%SZ", &tm);
	if ((ret = outdir_new(&b->own, "results", stamp)) < 0)
		return ret;
	return (b->dir = strdup(b->own.path)) ? 0 : -ENOMEM;
}

/* Is DIR/batch.json one iotrial wrote: a regular file of one link (dirfile_open: looked at
 * before it is opened) that reads as iotrial's batch.json? Only that one may
 * --force replace: a user's file of that name is not iotrial's to remove. */
static bool batch_file_ours(const struct batch *b)
{
	int fd = dirfile_open(b->dir_fd, BATCH_FILE, O_RDONLY, 0);
	const char *schema;
	struct stat st;
	json_t *doc;
	bool ours;
	FILE *f;

	if (fd < 0)
		return false;
	/* 64 MiB: far more than a queue of 100000 files writes; no reading a huge file. */
	if (fstat(fd, &st) < 0 || st.st_size > (64 << 20) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return false;
	}
	doc = json_loadf(f, 0, NULL);
	fclose(f);
	schema = json_string_value(json_object_get(doc, "schema"));
	ours = schema && !strcmp(schema, "iotrial.batch/1") &&
	       json_is_array(json_object_get(doc, "files"));
	json_decref(doc);
	return ours;
}

int batch_open(struct batch *b, const char *dir, bool force)
{
	struct stat st;
	int ret;

	utc_now(b->started_at);
	if ((ret = make_dir(b, dir)) < 0 || (ret = lock_dir(b)) < 0)
		return ret;
	if (fstatat(b->dir_fd, BATCH_FILE, &st, AT_SYMLINK_NOFOLLOW) == 0 && !batch_file_ours(b)) {
		fprintf(
		    stderr,
		    "iotrial: batch folder '%s' holds a %s that iotrial did not write (not a regular file of one link, in iotrial's form): refusing to replace it, even with --force; move it away, or name another folder\n",
		    b->dir, BATCH_FILE);
		return -EEXIST;
	}
	if (fstatat(b->dir_fd, BATCH_FILE, &st, AT_SYMLINK_NOFOLLOW) == 0 && !force) {
		fprintf(
		    stderr,
		    "iotrial: batch folder '%s' holds the %s of an earlier batch: give --force to replace it and its job files' results, or name another folder\n",
		    b->dir, BATCH_FILE);
		return -EEXIST;
	}
	for (size_t i = 0; i < b->n; i++) {
		char *path = NULL;
		if (asprintf(&path, "%s/%s", b->dir, b->e[i].name) < 0)
			return -ENOMEM;
		ret = outdir_take_at(&b->e[i].od, b->dir_fd, b->e[i].name, path, force);
		free(path);
		if (ret < 0)
			return ret;
	}
	/* Every folder looked at and locked before any is emptied: a batch refused at its tenth
	 * folder leaves the earlier runs in the first nine as they were. */
	for (size_t i = 0; i < b->n; i++)
		if ((ret = outdir_empty(&b->e[i].od)) < 0)
			return ret;
	return batch_write(b);
}

/* 129 (SIGHUP), 130 (SIGINT), 143 (SIGTERM); not 141, stdout's reader gone after the
 * results. */
static bool interrupted(int status)
{
	return status > 128 && status != 141;
}

static const char *state_name(enum batch_state s)
{
	static const char *const names[] = {"pending", "running",     "ok",
					    "failed",  "interrupted", "skipped"};

	return names[s];
}

static json_t *time_or_null(const char *t)
{
	return *t ? json_string(t) : json_null();
}

static json_t *status_or_null(int st)
{
	return st >= 0 ? json_integer(st) : json_null();
}

static json_t *entry_json(const struct batch_entry *e)
{
	json_t *o = json_object();

	json_object_set_new(o, "job_file", rf_json_str(e->job_file));
	json_object_set_new(o, "folder", rf_json_str(e->name));
	json_object_set_new(o, "status", json_string(state_name(e->state)));
	json_object_set_new(o, "exit_status", status_or_null(e->exit_status));
	json_object_set_new(o, "started_at", time_or_null(e->started_at));
	json_object_set_new(o, "finished_at", time_or_null(e->finished_at));
	return o;
}

/* The batch's own status: running, then ok, failed or interrupted. */
static const char *batch_status(const struct batch *b)
{
	if (!b->ended)
		return "running";
	if (b->exit_status == 0)
		return "ok";
	return interrupted(b->exit_status) ? "interrupted" : "failed";
}

static json_t *batch_json(const struct batch *b)
{
	json_t *o = json_object(), *tool = json_object(), *files = json_array();

	json_object_set_new(o, "schema", json_string("iotrial.batch/1"));
	json_object_set_new(tool, "name", json_string("iotrial"));
	json_object_set_new(tool, "version", json_string(IOTRIAL_VERSION));
	json_object_set_new(o, "tool", tool);
	json_object_set_new(o, "host", json_string(dist_host()));
	json_object_set_new(o, "pid", json_integer(getpid()));
	json_object_set_new(o, "ranks", json_integer(dist_size()));
	json_object_set_new(o, "started_at", time_or_null(b->started_at));
	json_object_set_new(o, "finished_at", time_or_null(b->finished_at));
	json_object_set_new(o, "status", json_string(batch_status(b)));
	json_object_set_new(o, "exit_status", status_or_null(b->ended ? b->exit_status : -1));
	json_object_set_new(o, "keep_going", json_boolean(b->keep_going));
	json_object_set_new(o, "log", b->log ? json_string(b->log) : json_null());
	for (size_t i = 0; i < b->n; i++)
		json_array_append_new(files, entry_json(&b->e[i]));
	json_object_set_new(o, "files", files);
	return o;
}

/* Write `doc` into DIR/batch.json through a temporary file and a rename: a reader sees the
 * old whole file or the new one. Returns 0 or -errno. */
static int write_atomic(const struct batch *b, json_t *doc)
{
	char tmp[sizeof(BATCH_FILE) + 2 + DIRFILE_TMP_TAIL];
	int fd, ret = 0;
	FILE *f;

	/* In the folder held open, not by its path: a folder renamed or replaced by a symlink
	 * mid-batch gets no file, and the unlink below removes only the file made here. */
	if ((fd = dirfile_tmp(b->dir_fd, BATCH_FILE, tmp, sizeof(tmp))) < 0)
		return fd;
	if (!(f = fdopen(fd, "w"))) {
		ret = -errno;
		close(fd);
		goto out;
	}
	if (json_dumpf(doc, f, JSON_INDENT(2)) < 0 || fputc('\n', f) == EOF || fflush(f) != 0)
		ret = errno ? -errno : -EIO;
	if (!ret && (fchmod(fd, 0644) < 0 || fsync(fd) < 0))
		ret = -errno;
	if (fclose(f) != 0 && !ret)
		ret = -errno;
	if (!ret && renameat(b->dir_fd, tmp, b->dir_fd, BATCH_FILE) < 0)
		ret = -errno;
out:
	if (ret)
		unlinkat(b->dir_fd, tmp, 0);
	return ret;
}

int batch_write(struct batch *b)
{
	json_t *doc;
	int ret;

	if (b->dir_fd < 0)
		return 0;
	if (!(doc = batch_json(b)))
		return -ENOMEM;
	errno = 0;
	cli_guard_begin();
	ret = write_atomic(b, doc);
	cli_guard_end();
	json_decref(doc);
	if (ret < 0 && !b->write_failed)
		fprintf(stderr, "iotrial: cannot write %s/%s: %s\n", b->dir, BATCH_FILE,
			strerror(-ret));
	b->write_failed |= ret < 0;
	return ret;
}

void batch_begin(struct batch *b, size_t i)
{
	b->e[i].state = BATCH_RUNNING;
	utc_now(b->e[i].started_at);
	batch_write(b);
}

void batch_end(struct batch *b, size_t i, int status)
{
	struct batch_entry *e = &b->e[i];

	e->state = status == 0 ? BATCH_OK : interrupted(status) ? BATCH_INTERRUPTED : BATCH_FAILED;
	e->exit_status = status;
	utc_now(e->finished_at);
	/* Its folder is done with: another run may take it now. */
	outdir_release(&e->od);
	batch_write(b);
}

void batch_finish(struct batch *b, int status)
{
	size_t count[BATCH_SKIPPED + 1] = {0};

	for (size_t i = 0; i < b->n; i++)
		if (b->e[i].state == BATCH_PENDING)
			b->e[i].state = BATCH_SKIPPED;
	b->ended = true;
	b->exit_status = status;
	utc_now(b->finished_at);
	batch_write(b);
	for (size_t i = 0; i < b->n; i++)
		count[b->e[i].state]++;
	fprintf(stderr,
		"iotrial: batch in %s/ (%s): %zu ok, %zu failed, %zu interrupted, %zu skipped\n",
		b->dir, BATCH_FILE, count[BATCH_OK], count[BATCH_FAILED], count[BATCH_INTERRUPTED],
		count[BATCH_SKIPPED]);
}

void batch_release(struct batch *b)
{
	for (size_t i = 0; b->e && i < b->n; i++) {
		outdir_release(&b->e[i].od);
		free(b->e[i].name);
	}
	free(b->e);
	b->e = NULL;
	if (b->dir_fd >= 0)
		close(b->dir_fd);
	b->dir_fd = -1;
	outdir_release(&b->own);
	free(b->dir);
	b->dir = NULL;
}
