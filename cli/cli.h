/* The command line's parts outside iotrial.c: the commands (but run: cli/run_cmd.h), the
 * usage text, the signals, and the writing of a run's results. */
#ifndef IOTRIAL_CLI_H
#define IOTRIAL_CLI_H

#include <stdatomic.h>
#include <stdbool.h>

#define EXIT_RUN   1   /* a trial or the run failed */
#define EXIT_USAGE 2   /* usage or job-file error: nothing was run */
#define EXIT_PIPE  141 /* stdout's reader went away (128 + SIGPIPE), after the results */

struct cli_progress;
struct outdir;
struct results;
struct rep_list;

/* The signal that asked the run to stop (SIGINT, SIGTERM), or 0 (cli/write.c). */
extern atomic_int cli_stop_signal;
/* Set when stdout's reader went away: no further job file runs. */
extern bool cli_stdout_closed;

/* Give each closed standard descriptor /dev/null, as git does: else the first file iotrial
 * opens (the result folder, its lock) could become descriptor 1 and take the summary. */
void cli_std_fds_open(void);

/* Handle SIGINT and SIGTERM (stop the run; a second SIGINT exits, once no result file is half
 * written) and SIGPIPE (writes to a closed pipe fail with EPIPE instead). */
void cli_signals_install(void);

/* Around the writing of a file other than the results (batch.json): a second Ctrl-C waits
 * for cli_guard_end, which then exits with 130, so no half-written or temporary file stays. */
void cli_guard_begin(void);
void cli_guard_end(void);

/* Where a run's checkpoints go (run_opts.checkpoint_arg of cli_checkpoint): results.json in
 * the held folder `od` (its path only for messages).
 * The first one that cannot be written is said on stderr, once for the job file (`failed`
 * is then set), after clearing the progress line `pg` (may be NULL); the run goes on. */
struct cli_checkpoints {
	const struct outdir *od;
	struct cli_progress *pg;
	bool failed;
};

/* The run's checkpoint hook: results.json as it stands, into the folder a struct
 * cli_checkpoints `to` names (run_opts.checkpoint). */
void cli_checkpoint(const struct results *r, void *to);

/* After the run: the result file of every reporter in `formats` into the held folder `od`
 * (by its descriptor; its path only for messages),
 * then the summary on stdout unless `quiet` or a second Ctrl-C came, then the folder on
 * stderr. Returns 0 or the exit status of what failed: EXIT_RUN (a file, or stdout),
 * EXIT_PIPE (stdout's reader went away; cli_stdout_closed is set). */
int cli_write_results(const struct results *r, const struct outdir *od,
		      const struct rep_list *formats, bool quiet);

/* The same for a run that is complete (iotrial run --resume on it): only the files of
 * `formats` that the folder lacks are written, from `r` as read back; a name that is there, even as
 * a symlink or a file of another's, is left as it is. Then the summary and the folder as
 * cli_write_results prints them. Returns as cli_write_results does. */
int cli_write_missing(const struct results *r, const struct outdir *od,
		      const struct rep_list *formats, bool quiet);

/* The whole --help text (cli/usage.c). */
extern const char iotrial_usage[];

/* After a usage error of command `cmd` (NULL before a command was named): the line
 * "iotrial: see 'iotrial CMD --help'" on stderr (cli/usage.c). */
void cli_usage_hint(const char *cmd);

/* getopt's '?' (unknown option) or ':' (missing value; the option string starts with ':')
 * for `argv`, with opterr = 0: one line naming the option, on stderr. */
void cli_bad_option(int opt, char **argv);

/* iotrial report RESULTS.json [-f text|csv|json] [-o FILE]: exit status. */
int cmd_report(int argc, char **argv);

/* iotrial compare A.json B.json [--metric M] [--confidence C] [--paired]: exit status. */
int cmd_compare(int argc, char **argv);

/* iotrial validate JOBFILE... [--set KEY=VALUE]... [--estimate-from RESULTS.json] [--probe]:
 * every instance as resolved, the stages, the estimated time (cli/info.c). Exit status. */
int cmd_validate(int argc, char **argv);

/* iotrial import-fio FILE.fio: exit status (0, 3 a partial import, 2, 1; cli/import_fio.c). */
int cmd_import_fio(int argc, char **argv);

/* iotrial backends (its arguments are not looked at): exit status. */
int cmd_backends(int argc, char **argv);

/* iotrial keys [NAME | BACKEND | --json] (cli/keys.c): exit status. */
int cmd_keys(int argc, char **argv);

#endif
