/* For a unit test that stands in for libc's openat (defined before this is included): open
 * goes through it too, so that a path opened either way meets the test's openat. */
#ifndef IOTRIAL_TESTS_UNIT_OPEN_SHIM_H
#define IOTRIAL_TESTS_UNIT_OPEN_SHIM_H

#include <fcntl.h>
#include <stdarg.h>

int open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0;
	va_end(ap);
	return openat(AT_FDCWD, path, flags, mode);
}

#endif
