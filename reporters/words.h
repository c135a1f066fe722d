/* Sentences that the text summary and report.html both say, formatted once: a comparison's
 * verdict, a change point, the trials whose logs lack lines. They read the results only. */
#ifndef IOTRIAL_WORDS_H
#define IOTRIAL_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/results.h"

/* "a is faster than b by 32.4% ± 2.1% (seconds, 95% confidence, welch)", or that there is
 * no significant difference, or n/a; into buf (len bytes, cut short if need be). */
void words_verdict(char *buf, size_t len, const struct comparison *c);

/* "write rate fell from 182 MB/s to 39.0 MB/s after 1.20 GB written (6.58 s)" for change
 * point `c` of instance `ir`, rates and sizes in the job file's units (`binary`). */
void words_change(char *buf, size_t len, const struct instance_result *ir,
		  const struct change_point *c, bool binary);

/* "records/ lacks lines of 3 trials (No space left on device)": the trials of `ir` whose
 * record or interval log lacks lines (log_error), with the first one's reason; into buf
 * (len bytes). Returns how many trials (0: none, and buf is left as it was). */
size_t words_log_cut(char *buf, size_t len, const struct instance_result *ir);

#endif
