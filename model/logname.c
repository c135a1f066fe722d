/* The names of an instance's files in the result folder (see logname.h). */
#include "model/logname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *logname_records(const char *inst, bool intervals)
{
	char *name = NULL;
	size_t n = strlen(inst);

	if (asprintf(&name, "%s.%s", inst, intervals ? "intervals.csv" : "csv") < 0)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (name[i] == '/')
			name[i] = '_';
	return name;
}

void logname_hook(char *buf, size_t len, const char *inst, const char *what)
{
	char name[LOGNAME_HOOK_MAX + 1];
	size_t i;

	/* The experiment's by what it is, not by a name: a job may be named "experiment". */
	if (!inst) {
		snprintf(buf, len, "experiment.%s.log", what);
		return;
	}
	for (i = 0; i < LOGNAME_HOOK_MAX && inst[i]; i++) {
		char c = inst[i];
		bool safe = strchr("_-.", c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9');
		name[i] = c;
		if (!safe)
			name[i] = '_';
	}
	name[i] = 0;
	/* Every instance's under job., so none shares the experiment's. */
	snprintf(buf, len, "job.%s.%s.log", name, what);
}
