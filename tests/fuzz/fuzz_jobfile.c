/* libFuzzer target for the job-file parser and the planner: YAML text in, a spec and a plan
 * or error messages out. Deterministic and side-effect free: the environment is a fixed
 * table, ${scratch} names a folder that does not exist, and plan_build only stats paths
 * (and opens block devices read-only for their size). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/plan/plan.h"
#include "parsers/jobfile.h"

#define FUZZ_SCRATCH  "/nonexistent-iotrial-fuzz"
#define FUZZ_MAX_SETS 4

/* A couple of set variables, so ${VAR} and ${VAR:-default} take both branches. */
static const char *fuzz_getenv(const char *name, void *arg)
{
	if (!strcmp(name, "SIZE"))
		return "80MB";
	if (!strcmp(name, "EMPTY"))
		return "";
	return NULL;
}

static const struct expand_var fuzz_builtins[] = {{"scratch", FUZZ_SCRATCH}};

/* Leading lines "#set KEY=VALUE" become --set overrides (YAML reads them as comments), so
 * the fuzzer reaches the override paths too. Returns how many; the strings are malloc'd. */
static size_t fuzz_overrides(const char *text, size_t len, struct spec_override *ov)
{
	size_t n = 0, pos = 0;

	while (n < FUZZ_MAX_SETS && len - pos > 5 && !memcmp(text + pos, "#set ", 5)) {
		const char *line = text + pos + 5, *end = memchr(line, '\n', len - pos - 5);
		const char *eq;
		size_t l = end ? (size_t)(end - line) : len - pos - 5;

		if (!(eq = memchr(line, '=', l)))
			break;
		ov[n].key = strndup(line, (size_t)(eq - line));
		ov[n].value = strndup(eq + 1, l - (size_t)(eq - line) - 1);
		n++;
		pos += 5 + l + (end != NULL);
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct spec_override ov[FUZZ_MAX_SETS];
	size_t nov = fuzz_overrides(text, size, ov);
	const struct yp_options opt = {ov, nov, fuzz_builtins, 1, fuzz_getenv, NULL};
	struct exp_spec spec;
	struct diag d = {0}, d2 = {0};
	struct plan plan;
	char err[256];

	/* As iotrial.c does: the backends' options are job keys (once; again is a no-op). */
	if (be_registry_init(err, sizeof(err)) < 0)
		abort();
	if (yp_load_string("fuzz.yaml", text, size, &opt, &spec, &d) == 0) {
		/* As iotrial.c does: the plan is released whether or not it was built. */
		spec.scratch = strdup(FUZZ_SCRATCH);
		plan_build(&spec, FUZZ_SCRATCH, 1, &plan, &d2);
		plan_release(&plan);
		spec_release(&spec);
	}
	diag_release(&d);
	diag_release(&d2);
	for (size_t i = 0; i < nov; i++) {
		free(ov[i].key);
		free(ov[i].value);
	}
	return 0;
}
