/* The command line's parts outside iotrial.c: the commands that work on saved runs. */
#ifndef IOTRIAL_CLI_H
#define IOTRIAL_CLI_H

#define EXIT_RUN   1 /* a trial or the run failed */
#define EXIT_USAGE 2 /* usage or job-file error: nothing was run */

/* The whole --help text. */
extern const char iotrial_usage[];

/* iotrial report RESULTS.json [-f text|csv|json] [-o FILE]: exit status. */
int cmd_report(int argc, char **argv);

/* iotrial compare A.json B.json [--metric M] [--confidence C] [--paired]: exit status. */
int cmd_compare(int argc, char **argv);

struct plan;

/* validate's output: every instance as resolved, then the stages (cli/info.c). */
void cli_print_plan(const struct plan *p);
void cli_print_stages(const struct plan *p);

/* iotrial backends; iotrial keys: exit status. */
int cmd_backends(void);
int cmd_keys(void);

#endif
