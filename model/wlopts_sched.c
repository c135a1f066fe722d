/* Parsing the scheduling values of a job (see wlopts.h): CPU lists, nice, I/O priority. */
#include "model/wlopts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole number between lo and hi, all of `text`. */
static bool whole(const char *text, long lo, long hi, long *out)
{
	char *end;

	if (!*text)
		return false;
	errno = 0;
	*out = strtol(text, &end, 10);
	return !*end && !errno && *out >= lo && *out <= hi;
}

int wl_cpus_parse(const char *text, struct wl_sched *s, char *err, size_t errlen)
{
	char buf[256], *save = NULL, *part;
	bool any = false;

	if (strlen(text) >= sizeof(buf))
		goto bad;
	memcpy(buf, text, strlen(text) + 1);
	memset(s->cpus, 0, sizeof(s->cpus));
	for (part = strtok_r(buf, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(part + 1, '-');
		long a, b;
		if (dash)
			*dash = 0;
		if (!whole(part, 0, WL_CPUS_MAX - 1, &a) ||
		    !whole(dash ? dash + 1 : part, 0, WL_CPUS_MAX - 1, &b) || a > b)
			goto bad;
		for (long c = a; c <= b; c++)
			s->cpus[c / 64] |= 1ull << (c % 64);
		any = true;
	}
	if (!any)
		goto bad;
	s->cpus_set = true;
	return 0;
bad:
	snprintf(
	    err, errlen,
	    "expected CPU numbers and ranges like 0-1,4 (0 to %d, each range low-high), got '%s'",
	    WL_CPUS_MAX - 1, text);
	return -EINVAL;
}

int wl_nice_parse(const char *text, struct wl_sched *s, char *err, size_t errlen)
{
	long v;

	if (!whole(text, -20, 19, &v)) {
		snprintf(err, errlen,
			 "expected a nice value, a whole number from -20 to 19, got '%s'", text);
		return -ERANGE;
	}
	s->nice_set = true;
	s->nice = (int)v;
	return 0;
}

int wl_ioprio_parse(const char *text, struct wl_sched *s, char *err, size_t errlen)
{
	static const char *const classes[] = {"none", "rt", "be", "idle"};
	char buf[128], *save = NULL, *part;
	long level = 4;
	int cls = -1;

	if (strlen(text) >= sizeof(buf))
		goto bad;
	memcpy(buf, text, strlen(text) + 1);
	for (part = strtok_r(buf, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(part, ':');
		if (!colon)
			goto bad;
		*colon = 0;
		if (!strcmp(part, "class")) {
			for (int i = 1; i < 4; i++)
				if (!strcmp(colon + 1, classes[i]))
					cls = i;
			if (cls < 0)
				goto bad;
		} else if (!strcmp(part, "level")) {
			if (!whole(colon + 1, 0, 7, &level)) {
				snprintf(err, errlen,
					 "the I/O priority level is 0 (highest) to 7, got '%s'",
					 colon + 1);
				return -ERANGE;
			}
		} else {
			goto bad;
		}
	}
	if (cls < 0)
		goto bad;
	s->ioprio_class = (enum wl_ioprio_class)cls;
	s->ioprio_level = cls == WL_IOPRIO_IDLE ? 0 : (int)level;
	return 0;
bad:
	snprintf(
	    err, errlen,
	    "expected an I/O priority like {class: be, level: 4} (class rt, be or idle; level 0 to 7), got '%s'",
	    text);
	return -EINVAL;
}

int wl_cpus_check(const char *text, char *err, size_t errlen)
{
	struct wl_sched s;

	return wl_cpus_parse(text, &s, err, errlen);
}

int wl_nice_check(const char *text, char *err, size_t errlen)
{
	struct wl_sched s;

	return wl_nice_parse(text, &s, err, errlen);
}

int wl_ioprio_check(const char *text, char *err, size_t errlen)
{
	struct wl_sched s;

	return wl_ioprio_parse(text, &s, err, errlen);
}
