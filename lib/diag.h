/* Diagnostics: every error found in a job file or plan, collected so the user sees them
 * all at once, each one line: `FILE:LINE:COL: key 'K': what was expected`. */
#ifndef IOTRIAL_DIAG_H
#define IOTRIAL_DIAG_H

#include <stdio.h>

/* Where a value came from, for messages: a job file position, a --set option, or a file
 * read back (line 0). */
struct src_loc {
	const char *file; /* the job file path, or "--set" */
	unsigned line;	  /* 1-based; 0 when not from the file */
	unsigned col;
};

struct diag {
	char **msgs;
	size_t n;
	size_t cap;
};

/* Add one message at `loc` (NULL: no position). The message is formatted like printf. */
void diag_add(struct diag *d, const struct src_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The most distinct messages diag_print prints; the rest are counted in one last line. */
#define DIAG_PRINT_MAX 50

/* Print the messages, one per line, to `f`; a message repeated word for word, once; past
 * DIAG_PRINT_MAX of them, one line "... and K more" instead of the other K. */
void diag_print(const struct diag *d, FILE *f);

void diag_release(struct diag *d);

#endif
