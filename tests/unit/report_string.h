/* A reporter's output as a string, for the unit tests that read what a reporter wrote.
 * Include after <cmocka.h> (its asserts). */
#ifndef IOTRIAL_TEST_REPORT_STRING_H
#define IOTRIAL_TEST_REPORT_STRING_H

#include <stdio.h>

#include "model/results.h"
#include "reporters/reporter.h"

/* Reporter `name`'s text for `r`, malloc'd: the caller frees it. */
static inline char *report(const char *name, const struct results *r)
{
	const struct rep_ops *rep = rep_find(name);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(rep);
	assert_non_null(f);
	assert_int_equal(rep->write(r, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

#endif
