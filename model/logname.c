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

void logname_hook(char *buf, size_t len, const char *who, const char *what)
{
	char name[LOGNAME_HOOK_MAX + 1];
	size_t i;

	for (i = 0; i < LOGNAME_HOOK_MAX && who[i]; i++) {
		char c = who[i];
		bool safe = strchr("_-.", c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9');
		name[i] = c;
		if (!safe)
			name[i] = '_';
	}
	name[i] = 0;
	/* job.NAME: a job named "experiment" has a log of its own. */
	snprintf(buf, len, "%s%s.%s.log", strcmp(who, "experiment") ? "job." : "", name, what);
}
