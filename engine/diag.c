/* Diagnostics collection (see diag.h). */
#include "engine/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_add(struct diag *d, const struct src_loc *loc, const char *fmt, ...)
{
	char body[1024], *line = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	if (loc && loc->file && loc->line)
		n = asprintf(&line, "%s:%u:%u: %s", loc->file, loc->line, loc->col, body);
	else if (loc && loc->file)
		n = asprintf(&line, "%s: %s", loc->file, body);
	else
		n = asprintf(&line, "%s", body);
	if (n < 0)
		return;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 8;
		char **m = realloc(d->msgs, cap * sizeof(*m));
		if (!m) {
			free(line);
			return;
		}
		d->msgs = m;
		d->cap = cap;
	}
	d->msgs[d->n++] = line;
}

void diag_print(const struct diag *d, FILE *f)
{
	for (size_t i = 0; i < d->n; i++)
		fprintf(f, "%s\n", d->msgs[i]);
}

void diag_release(struct diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->msgs[i]);
	free(d->msgs);
	memset(d, 0, sizeof(*d));
}
