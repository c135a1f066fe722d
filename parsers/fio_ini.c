/* Reading fio's ini dialect into sections and options (see fio_ini.h). Each line is one of:
 * blank, a comment (`;` or `#` first), a `[section]` header, `key=value`, a bare `key`, or
 * `include FILE`; fio strips a `;` or `#` comment from the end of any line too. */
#include "parsers/fio_ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fio_reader {
	const char *name;
	struct diag *d;
	struct fio_ini *out;
};

static void fio_err(struct fio_reader *r, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fio_err(struct fio_reader *r, unsigned line, unsigned col, const char *fmt, ...)
{
	struct src_loc l = {r->name, line, col};
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_add(r->d, &l, "%s", msg);
}

/* The line's text without its comment and surrounding blanks, in place. */
static char *fio_line_trim(char *s)
{
	char *e;

	s[strcspn(s, ";#")] = 0;
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

static int fio_section_add(struct fio_reader *r, const char *name, size_t n, unsigned line)
{
	struct fio_ini *f = r->out;
	struct fio_section *ns = realloc(f->secs, (f->nsecs + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	f->secs = ns;
	ns += f->nsecs;
	memset(ns, 0, sizeof(*ns));
	if (!(ns->name = strndup(name, n)))
		return -ENOMEM;
	ns->line = line;
	f->nsecs++;
	return 0;
}

static int fio_opt_add(struct fio_reader *r, char *s, unsigned line)
{
	struct fio_section *sec = &r->out->secs[r->out->nsecs - 1];
	struct fio_opt *no = realloc(sec->opts, (sec->nopts + 1) * sizeof(*no));
	char *eq = strchr(s, '='), *k = s, *v = NULL, *ke;

	if (!no)
		return -ENOMEM;
	sec->opts = no;
	if (eq) {
		v = fio_line_trim(eq + 1);
		for (ke = eq; ke > k && isspace((unsigned char)ke[-1]); ke--)
			;
		*ke = 0;
	}
	no += sec->nopts;
	no->line = line;
	no->key = strdup(k);
	no->value = v ? strdup(v) : NULL;
	sec->nopts++;
	if (!no->key || (v && !no->value))
		return -ENOMEM;
	return 0;
}

/* A `${` must close; fio leaves an unclosed one in the value, where it is a slip. */
static bool fio_vars_closed(const char *v)
{
	for (const char *p = strstr(v, "${"); p; p = strstr(p + 2, "${"))
		if (!strchr(p, '}'))
			return false;
	return true;
}

/* One line (NUL-terminated, its comment still on): 0, -EINVAL after reporting, -ENOMEM. */
static int fio_line(struct fio_reader *r, char *raw, unsigned line)
{
	char *s = fio_line_trim(raw);
	unsigned col = (unsigned)(s - raw) + 1;
	size_t n = strlen(s);

	if (!n)
		return 0;
	if (*s == '[') {
		if (n < 3 || s[n - 1] != ']' || strpbrk(s + 1, "[]") != s + n - 1) {
			fio_err(
			    r, line, col,
			    "'%s' is not a section header: a section is a name in brackets, like [job1]",
			    s);
			return -EINVAL;
		}
		return fio_section_add(r, s + 1, n - 2, line);
	}
	if (!strncmp(s, "include", 7) && (!s[7] || isspace((unsigned char)s[7]))) {
		fio_err(
		    r, line, col,
		    "'%s': import-fio reads one file and does not follow include; paste the included options into this section",
		    s);
		return -EINVAL;
	}
	if (*s == '=') {
		fio_err(r, line, col, "'%s': an option needs a name before '='", s);
		return -EINVAL;
	}
	if (!r->out->nsecs) {
		fio_err(r, line, col, "option '%s' comes before any [section]", s);
		return -EINVAL;
	}
	if (!fio_vars_closed(s)) {
		fio_err(r, line, col,
			"'%s': a '${' without its closing '}' (is the file cut short?)", s);
		return -EINVAL;
	}
	return fio_opt_add(r, s, line);
}

int fio_ini_parse(const char *name, const char *text, size_t len, struct fio_ini *out,
		  struct diag *d)
{
	struct fio_reader r = {name, d, out};
	char *buf;
	unsigned line = 1;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (memchr(text, 0, len)) {
		const char *z = memchr(text, 0, len);
		for (const char *p = text; p < z; p++)
			line += *p == '\n';
		fio_err(&r, line, 1, "%s",
			"the file holds a NUL byte: not a fio job file (or a damaged one)");
		return -EINVAL;
	}
	if (!(buf = strndup(text, len)))
		return -ENOMEM;
	for (char *s = buf, *nl; s && !ret; s = nl ? nl + 1 : NULL, line++) {
		if ((nl = strchr(s, '\n')))
			*nl = 0;
		ret = fio_line(&r, s, line);
		if (!nl)
			break;
	}
	free(buf);
	if (!ret && !out->nsecs) {
		fio_err(&r, 1, 1, "%s",
			"no [section] in the file: a fio job file has at least one job");
		ret = -EINVAL;
	}
	if (ret)
		fio_ini_release(out);
	return ret;
}

void fio_ini_release(struct fio_ini *f)
{
	for (size_t i = 0; i < f->nsecs; i++) {
		for (size_t j = 0; j < f->secs[i].nopts; j++) {
			free(f->secs[i].opts[j].key);
			free(f->secs[i].opts[j].value);
		}
		free(f->secs[i].opts);
		free(f->secs[i].name);
	}
	free(f->secs);
	memset(f, 0, sizeof(*f));
}

static bool fio_ext(const char *name, const char *ext)
{
	size_t n = strlen(name), e = strlen(ext);

	return n > e && !strcmp(name + n - e, ext);
}

bool fio_ini_sniff(const char *name, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	if (fio_ext(name, ".fio") || fio_ext(name, ".ini"))
		return true;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		while (p < e && isspace((unsigned char)*p))
			p++;
		if (p < e && *p != ';' && *p != '#') {
			while (e > p && isspace((unsigned char)e[-1]))
				e--;
			/* `[job1]` alone: a YAML job file never starts with a one-item flow list.
			 */
			return *p == '[' && e[-1] == ']' && e - p > 2 &&
			       !memchr(p, ',', (size_t)(e - p)) && !memchr(p, ' ', (size_t)(e - p));
		}
		p = nl ? nl + 1 : end;
	}
	return false;
}
