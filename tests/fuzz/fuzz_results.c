/* libFuzzer target for the results.json reader, as `iotrial report` uses it: each input is
 * written to one memfd (created once, rewritten with ftruncate + pwrite), read back through
 * rj_load by its /proc/self/fd path, and what loads is written by every reporter to
 * /dev/null. Nothing touches the disk. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "model/results_json.h"
#include "reporters/reporter.h"

static int fuzz_fd = -1;
static char fuzz_path[64];
static FILE *fuzz_null;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fd = memfd_create("fuzz-results.json", MFD_CLOEXEC);
	fuzz_null = fopen("/dev/null", "we");
	if (fuzz_fd < 0 || !fuzz_null) {
		perror("fuzz_results: memfd_create or /dev/null");
		exit(1);
	}
	snprintf(fuzz_path, sizeof(fuzz_path), "/proc/self/fd/%d", fuzz_fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct results r;
	struct diag d = {0};

	if (ftruncate(fuzz_fd, 0) < 0 || (size && pwrite(fuzz_fd, data, size, 0) != (ssize_t)size))
		abort();
	if (rj_load(fuzz_path, &r, &d) == 0) {
		for (size_t i = 0; rep_registry[i]; i++)
			rep_registry[i]->write(&r, fuzz_null);
		results_release(&r);
	}
	diag_release(&d);
	return 0;
}
