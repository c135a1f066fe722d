/* Diagnostics collection (see diag.h). */
#include "lib/diag.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/visible.h"

void diag_add(struct diag *d, const struct src_loc *loc, const char *fmt, ...)
{
	char body[1024], *raw = NULL, *line;
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	if (loc && loc->file && loc->line)
		n = asprintf(&raw, "%s:%u:%u: %s", loc->file, loc->line, loc->col, body);
	else if (loc && loc->file)
		n = asprintf(&raw, "%s: %s", loc->file, body);
	else
		n = asprintf(&raw, "%s", body);
	if (n < 0)
		return;
	/* A value quoted in a message (a job file's string, a path) must keep the message one
	 * line, and must not reach the terminal as an escape sequence. */
	line = visible_dup(raw);
	free(raw);
	if (!line)
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

struct entry {
	const char *text;
	size_t at;
};

static int by_text(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->text, y->text);

	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* A message repeated word for word (an error of a --set value, found once per matrix
 * instance) is printed once, where it first came. Copies are found in a sorted index, so
 * many messages cost n log n. Past DIAG_PRINT_MAX distinct messages one line says how many
 * more there were: a file with thousands of errors should not scroll its first away. */
void diag_print(const struct diag *d, FILE *f)
{
	struct entry *idx = d->n > 1 ? malloc(d->n * sizeof(*idx)) : NULL;
	bool *repeat = idx ? calloc(d->n, sizeof(*repeat)) : NULL;
	size_t shown = 0, more = 0;

	if (repeat) {
		for (size_t i = 0; i < d->n; i++)
			idx[i] = (struct entry){d->msgs[i], i};
		qsort(idx, d->n, sizeof(*idx), by_text);
		for (size_t i = 1; i < d->n; i++)
			repeat[idx[i].at] = !strcmp(idx[i].text, idx[i - 1].text);
	}
	for (size_t i = 0; i < d->n; i++) {
		if (repeat && repeat[i])
			continue;
		if (shown < DIAG_PRINT_MAX) {
			fprintf(f, "%s\n", d->msgs[i]);
			shown++;
		} else {
			more++;
		}
	}
	if (more)
		fprintf(f, "... and %zu more\n", more);
	free(repeat);
	free(idx);
}

void diag_release(struct diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->msgs[i]);
	free(d->msgs);
	memset(d, 0, sizeof(*d));
}
