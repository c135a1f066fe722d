/* Running the prepare and cleanup hooks (see hooks.h), as the command workload runs its
 * command: /bin/sh -c in a process group of its own, which dies with iotrial (lib/child.c). */
#include "engine/run/hooks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/child.h"
#include "lib/dirfile.h"
#include "model/logname.h"

/* DIR/hooks/NAME, NAME as logname_hook gives it (the experiment's when `inst` is NULL),
 * created anew, or /dev/null without a result folder. Returns the descriptor or -errno, with
 * the path in `path`. */
static int hook_log_open(const struct hook_ctx *h, const char *inst, const char *what, char *path,
			 size_t len)
{
	char name[LOGNAME_HOOK_MAX + 64];

	if (!h->dir) {
		snprintf(path, len, "/dev/null");
		return open(path, O_WRONLY | O_CLOEXEC);
	}
	logname_hook(name, sizeof(name), inst, what);
	snprintf(path, len, "%s/hooks", h->dir);
	/* hooks/ and its logs by the held folder, never followed as symlinks (one planted in a
	 * resumed run's folder would have the log written somewhere else); a FIFO never blocks. */
	int dfd = dirfile_subdir(h->dir_fd, "hooks");
	if (dfd < 0)
		return dfd;
	snprintf(path, len, "%s/hooks/%s", h->dir, name);
	int fd = dirfile_open(dfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	close(dfd);
	return fd;
}

/* child_wait's question for a prepare hook: has the user interrupted the run? */
static bool interrupted(const void *arg)
{
	const struct hook_ctx *h = arg;

	return h->stop && atomic_load(h->stop);
}

int hook_run(const struct hook_ctx *h, const char *inst, const char *what, const char *cmd)
{
	bool prepare = !strcmp(what, "prepare"), stopped = false;
	char path[4096], whom[256];
	int fd = hook_log_open(h, inst, what, path, sizeof(path)), st;
	pid_t pid;

	if (inst)
		snprintf(whom, sizeof(whom), "job '%s'", inst);
	else
		snprintf(whom, sizeof(whom), "experiment");
	if (fd < 0) {
		diag_add(
		    h->d, NULL, "%s: %s hook: cannot write its output to '%s': %s%s", whom, what,
		    path, strerror(-fd),
		    fd == -ELOOP || fd == -ENOTDIR
			? " (a symbolic link or a file is in its place, which iotrial does not follow)"
		    : fd == -EINVAL || fd == -EMLINK
			? " (not a regular file with one link: a FIFO, a device or a hard link, which iotrial does not open)"
			: "");
		return -1;
	}
	pid = child_start(cmd, fd);
	st = pid < 0 ? pid : child_wait(pid, prepare ? interrupted : NULL, h, &stopped);
	close(fd);
	if (st == 0)
		return 0;
	if (st < 0)
		diag_add(h->d, NULL, "%s: %s hook: cannot run it: %s", whom, what, strerror(-st));
	else if (stopped)
		diag_add(h->d, NULL,
			 "%s: %s hook stopped by the interrupt: %s (its output is in %s)", whom,
			 what, cmd, path);
	else
		diag_add(h->d, NULL, "%s: %s hook exited with status %d: %s (its output is in %s)",
			 whom, what, st, cmd, path);
	return -1;
}

/* Has instance `i` come in a unit of this stage before unit `u` (load joins every unit)? */
static bool seen_before(const struct plan *p, size_t u, size_t i)
{
	for (size_t v = 0; v < u; v++) {
		if (p->units[v].stage != p->units[u].stage)
			continue;
		for (size_t k = 0; k < p->units[v].n; k++)
			if (p->units[v].inst[k] == i)
				return true;
	}
	return false;
}

int hook_stage(const struct hook_ctx *h, const struct plan *p, size_t stage, bool prepare)
{
	int ret = 0;

	for (size_t u = 0; u < p->nunits; u++) {
		if (p->units[u].stage != stage)
			continue;
		for (size_t k = 0; k < p->units[u].n; k++) {
			const struct instance *in = &p->inst[p->units[u].inst[k]];
			const char *cmd = prepare ? in->job.prepare : in->job.cleanup;
			if (!cmd || seen_before(p, u, p->units[u].inst[k]))
				continue;
			if (hook_run(h, in->name, prepare ? "prepare" : "cleanup", cmd) < 0) {
				ret = -1;
				if (prepare)
					return ret;
			}
		}
	}
	return ret;
}
