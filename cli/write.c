/* Writing a run's results: the result files, the checkpoints, the summary on stdout, and the
 * signals, handled so that none of them stops a result file halfway: a second Ctrl-C waits
 * for the file being written, and a closed stdout (SIGPIPE) ends the run after the results. */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/outdir.h"
#include "cli/progress.h"
#include "reporters/reporter.h"

/* Stored by on_signal, read by the run's threads: a signal handler may store only to a
 * lock-free atomic object (C11 7.14.1.1), and a volatile one is a data race between threads. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the stop flag must be a lock-free atomic_int");
atomic_int cli_stop_signal;
bool cli_stdout_closed;

/* Set while result files are written: a second Ctrl-C then waits for them (on_signal). */
static atomic_int writing_results, exit_pending;

/* When the first stop signal came (CLOCK_MONOTONIC, ns), and how soon after it a SIGINT is
 * the same interrupt delivered twice: timeout(1) signals its command, then the command's
 * process group, and when the handler runs between the two the second was taken for a
 * second Ctrl-C, which leaves without the results (about 1 run in 10 under timeout -s INT).
 * No one presses Ctrl-C twice within 0.1 s and means it twice. */
static atomic_long stop_ns;
#define SAME_INTERRUPT_NS 100000000L

static long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe (POSIX.1-2008) */
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* Leave at once (a second Ctrl-C), the room kept for the results given back first. */
static _Noreturn void leave_now(void)
{
	outdir_leaving();
	_exit(130);
}

/* A second Ctrl-C leaves at once, but never halfway through a result file: while one is
 * written, the exit waits for it (writing_done). The second look at writing_results covers a
 * writer that finished, in another thread, between the first look and exit_pending. */
static void on_signal(int sig)
{
	long now = monotonic_ns();

	if (cli_stop_signal == SIGINT && sig == SIGINT &&
	    now - atomic_load(&stop_ns) < SAME_INTERRUPT_NS)
		return;
	if (cli_stop_signal && sig == SIGINT) {
		if (!atomic_load(&writing_results))
			leave_now();
		atomic_store(&exit_pending, 1);
		if (!atomic_load(&writing_results))
			leave_now();
		return;
	}
	atomic_store(&stop_ns, now);
	cli_stop_signal = sig;
}

/* A write to a pipe nobody reads then fails with EPIPE instead of killing iotrial halfway
 * through its results. A handler, not SIG_IGN: a command a job runs gets the default back. */
static void on_sigpipe(int sig)
{
}

void cli_std_fds_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int n;
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (n >= 0 && n != fd)
			close(n);
	}
}

void cli_signals_install(void)
{
	struct sigaction sa = {0};

	sa.sa_handler = on_signal;
	/* One stop signal at a time, in the order sent: a SIGINT that came while a SIGTERM's
	 * handler ran was taken first. Worker threads block them (trial_slot.c). */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A terminal or ssh session that closes: a stop like SIGTERM's (exit 129), the files
	 * created removed and what was measured written, not a death on the spot. */
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_sigpipe;
	sigaction(SIGPIPE, &sa, NULL);
	/* A write past RLIMIT_FSIZE (ulimit -f) then fails with EFBIG, named like a full disk,
	 * instead of killing iotrial with its files left behind. A handler, as for SIGPIPE. */
	sigaction(SIGXFSZ, &sa, NULL);
}

static void writing_begin(void)
{
	atomic_store(&writing_results, 1);
}

/* Returns whether a second Ctrl-C came while writing. */
static bool writing_done(void)
{
	atomic_store(&writing_results, 0);
	return atomic_load(&exit_pending);
}

void cli_guard_begin(void)
{
	writing_begin();
}

void cli_guard_end(void)
{
	if (writing_done())
		leave_now(); /* the second Ctrl-C, held until the file was whole */
}

void cli_checkpoint(const struct results *r, void *arg)
{
	const struct rep_ops *json = rep_find("json");
	struct cli_checkpoints *to = arg;
	int ret;

	if (!json)
		return;
	writing_begin();
	ret = rep_write_file(json, r, to->od->fd);
	if (writing_done())
		leave_now(); /* the second Ctrl-C, held until the checkpoint was whole */
	/* The room kept for the results is not lent to a checkpoint (docs/cli.md, "Room for
	 * the results"): on a full disk it fails, and the next one is tried all the same. */
	if (ret < 0 && !to->failed) {
		to->failed = true;
		cli_progress_clear(to->pg);
		fprintf(
		    stderr,
		    "iotrial: warning: cannot write checkpoint %s/results.json: %s; the run goes on, trying again at each checkpoint, and writes its results at the end\n",
		    to->od->path, strerror(-ret));
	}
}

/* The summary on stdout. Returns 0, EXIT_RUN (stdout failed) or EXIT_PIPE (nobody reads it:
 * then no further job file runs, as SIGPIPE would have it, but not halfway through). */
static int print_summary(const struct results *r)
{
	int ret = fflush(stdout) == 0 ? rep_write_fd(rep_find("text"), r, STDOUT_FILENO) : -errno;

	if (ret == -EPIPE) {
		cli_stdout_closed = true;
		fprintf(stderr,
			"iotrial: stdout was closed by its reader (%s): no further job file runs\n",
			strerror(EPIPE));
		return EXIT_PIPE;
	}
	if (ret < 0) {
		fprintf(stderr, "iotrial: cannot print the summary on stdout: %s\n",
			strerror(-ret));
		return EXIT_RUN;
	}
	return 0;
}

/* Is report `rep`'s file in the folder `dfd` already there (as anything: a symlink is not
 * followed)? */
static bool in_folder(const struct rep_ops *rep, int dfd)
{
	struct stat st;

	return fstatat(dfd, rep->file, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
}

/* cli_write_results, and with `missing_only`, cli_write_missing. */
static int write_results(const struct results *r, const struct outdir *od,
			 const struct rep_list *formats, bool quiet, bool missing_only)
{
	const char *dir = od->path;
	int ret = 0, failed = 0;

	writing_begin();
	/* results.json last: a run killed while it writes its files leaves a checkpoint
	 * ("complete": false) that --resume finishes, never a complete one beside missing files. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < formats->n; i++) {
			const struct rep_ops *rep = formats->rep[i];
			int wr;
			if ((pass == 0) == !strcmp(rep->name, "json"))
				continue;
			if (missing_only && in_folder(rep, od->fd))
				continue;
			if ((wr = rep_write_file(rep, r, od->fd)) < 0) {
				fprintf(stderr, "iotrial: cannot write %s/%s: %s\n", dir, rep->file,
					strerror(-wr));
				failed++;
			}
		}
	if (!writing_done() && !quiet)
		ret = print_summary(r);
	if (failed) {
		fprintf(stderr, "iotrial: results in %s/ are incomplete: %d file(s) not written\n",
			dir, failed);
		return EXIT_RUN > ret ? EXIT_RUN : ret;
	}
	fprintf(stderr, "iotrial: results in %s/\n", dir);
	return ret;
}

int cli_write_results(const struct results *r, const struct outdir *od,
		      const struct rep_list *formats, bool quiet)
{
	return write_results(r, od, formats, quiet, false);
}

int cli_write_missing(const struct results *r, const struct outdir *od,
		      const struct rep_list *formats, bool quiet)
{
	return write_results(r, od, formats, quiet, true);
}
