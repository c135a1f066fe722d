/* iotrial run JOBFILE... (cli/run_cmd.c): run each job file in turn, each into a result
 * folder of its own (or stdout, with -o -), or go on with an interrupted run (--resume DIR). */
#ifndef IOTRIAL_CLI_RUN_CMD_H
#define IOTRIAL_CLI_RUN_CMD_H

/* The run command, `argv[0]` being "run": its exit status (cli/cli.h: 0, EXIT_RUN,
 * EXIT_USAGE, 128 + the signal that stopped it, EXIT_PIPE). */
int cmd_run(int argc, char **argv);

#endif
