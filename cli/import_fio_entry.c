/* The lines of an imported job (see import_fio.h): `key: value` entries, set once each (fio's
 * last setting wins), comments that say how an option was taken or why it was not, and the
 * YAML quoting of what goes into them. */
#include "cli/import_fio.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "parsers/yp.h"

int imp_set(struct imp_job *j, const char *key, const char *value, bool global)
{
	struct imp_entry *e;
	char *v = strdup(value);

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < j->n; i++)
		if (j->e[i].key && !strcmp(j->e[i].key, key)) {
			free(j->e[i].value);
			j->e[i].value = v;
			j->e[i].global = global;
			return 0;
		}
	if (!(e = realloc(j->e, (j->n + 1) * sizeof(*e)))) {
		free(v);
		return -ENOMEM;
	}
	j->e = e;
	e[j->n] = (struct imp_entry){strdup(key), v, global, false};
	if (!e[j->n].key)
		return -ENOMEM;
	j->n++;
	return 0;
}

bool imp_drop(struct imp_job *j, const char *key)
{
	for (size_t i = 0; i < j->n; i++) {
		if (!j->e[i].key || strcmp(j->e[i].key, key))
			continue;
		free(j->e[i].key);
		free(j->e[i].value);
		memmove(&j->e[i], &j->e[i + 1], (j->n - i - 1) * sizeof(j->e[0]));
		j->n--;
		return true;
	}
	return false;
}

int imp_comment(struct imp_job *j, bool global, bool unmapped, const char *fmt, ...)
{
	struct imp_entry *e;
	char *text = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	if (!(e = realloc(j->e, (j->n + 1) * sizeof(*e)))) {
		free(text);
		return -ENOMEM;
	}
	j->e = e;
	e[j->n++] = (struct imp_entry){NULL, text, global, unmapped};
	return 0;
}

static bool imp_plain_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_./+-%", c);
}

char *imp_yaml_scalar(const char *s)
{
	bool plain = *s && (isalnum((unsigned char)*s) || strchr("/._", *s));
	char *out, *o;

	for (const char *p = s; plain && *p; p++)
		plain = imp_plain_char(*p);
	if (plain)
		return strdup(s);
	if (!(out = malloc(4 * strlen(s) + 3)))
		return NULL;
	o = out;
	*o++ = '"';
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			*o++ = '\\';
		if (*p < 0x20)
			o += sprintf(o, "\\x%02x", *p);
		else
			*o++ = (char)*p;
	}
	*o++ = '"';
	*o = 0;
	return out;
}

char *imp_safe_name(const char *s)
{
	char *out = strdup(*s ? s : "job");

	for (char *c = out; c && *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_-.", *c))
			*c = '_';
	return out;
}

const char *imp_opt_value(const struct imp_opt *o)
{
	return o->o->value ? o->o->value : "1";
}

int imp_not_mapped(struct imp_state *st, const struct imp_opt *o, const char *why)
{
	st->unmapped++;
	return imp_comment(st->j, o->global, true, "not mapped: %s=%s (line %u): %s", o->o->key,
			   imp_opt_value(o), o->o->line, why);
}

int imp_note(struct imp_state *st, const struct imp_opt *o, const char *why)
{
	return imp_comment(st->j, o->global, false, "note: %s=%s (line %u): %s", o->o->key,
			   imp_opt_value(o), o->o->line, why);
}

int imp_default(struct imp_state *st, const struct imp_opt *o, const char *key)
{
	char why[128];

	imp_drop(st->j, key);
	snprintf(why, sizeof(why), "the default of fio and of iotrial; %s left out", key);
	return imp_note(st, o, why);
}

/* Does `text` pass key `key`'s own check (its type, units and bounds)? Else `why` says how
 * not, and the option is not mapped: a job file validate would refuse is no import. Keys
 * with no row of their own here pass. */
static bool imp_value_ok(const char *key, const char *text, char *why, size_t len)
{
	const struct job_key *k = job_key_find(key);
	struct key_value v = {0};
	double pct;
	int r;

	/* A variable is checked when the plan has its value. */
	if (!k || strstr(text, "${"))
		return true;
	/* A percentage of the target: which size it is waits for the plan, its bounds not. */
	if (k == job_key_row(JK_FILE_SIZE) && *text && text[strlen(text) - 1] == '%')
		r = yp_file_size_percent(text, &pct, why, len);
	else
		r = job_key_parse(k, text, &v, why, len);
	free(v.s);
	return r != -EINVAL && r != -ERANGE;
}

int imp_set_scalar(struct imp_state *st, const struct imp_opt *o, const char *key, const char *text)
{
	char why[256];
	char *y;
	int ret;

	if (!imp_value_ok(key, text, why, sizeof(why)))
		return imp_not_mapped(st, o, why);
	y = imp_yaml_scalar(text);
	ret = y ? imp_set(st->j, key, y, o->global) : -ENOMEM;

	free(y);
	return ret;
}
