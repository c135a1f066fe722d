/* Control characters written out (see visible.h). */
#include "lib/visible.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/utf8.h"

/* The longest escape of one character: a C1 control, \xc2\x9b. */
#define SHOWN_MAX 8

/* The character at `p` (not NUL): returns the bytes it takes, and writes into `shown` its
 * escape (NUL-terminated), or "" when it is shown as it is. */
static size_t step(const unsigned char *p, char shown[SHOWN_MAX + 1])
{
	static const char hex[] = "0123456789abcdef";
	size_t n = utf8_seq_len(p);
	bool control = n == 1 ? *p < 0x20 || *p == 0x7f : n == 2 && p[0] == 0xc2 && p[1] <= 0x9f;
	char *o = shown;

	if (n && !control) {
		*o = 0;
		return n;
	}
	if (*p == '\n' || *p == '\r' || *p == '\t') {
		const char *named = *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : "\\t";
		memcpy(shown, named, 3);
		return 1;
	}
	/* A control, its bytes; or a byte that is not UTF-8, alone (the next may start one). */
	n = n ? n : 1;
	for (size_t i = 0; i < n; i++) {
		*o++ = '\\';
		*o++ = 'x';
		*o++ = hex[p[i] >> 4];
		*o++ = hex[p[i] & 15];
	}
	*o = 0;
	return n;
}

void visible_puts(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char shown[SHOWN_MAX + 1];

	while (p && *p) {
		size_t n = step(p, shown);
		if (*shown)
			fputs(shown, out);
		else
			fwrite(p, 1, n, out);
		p += n;
	}
}

void visible_vprintf(FILE *out, const char *fmt, va_list ap)
{
	char buf[1024], *big = NULL;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	/* Out of memory: the text cut, its end a \xHH at worst. */
	if (n >= (int)sizeof(buf) && vasprintf(&big, fmt, again) < 0)
		big = NULL;
	va_end(again);
	visible_puts(out, big ? big : buf);
	free(big);
}

void visible_printf(FILE *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	visible_vprintf(out, fmt, ap);
	va_end(ap);
}

size_t visible_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char shown[SHOWN_MAX + 1];
	size_t w = 0;

	while (p && *p) {
		p += step(p, shown);
		w += *shown ? strlen(shown) : 1;
	}
	return w;
}

char *visible_dup(const char *s)
{
	const unsigned char *p;
	char shown[SHOWN_MAX + 1], *out, *o;
	size_t len = 0;

	for (p = (const unsigned char *)s; *p;) {
		size_t n = step(p, shown);
		len += *shown ? strlen(shown) : n;
		p += n;
	}
	if (!(out = o = malloc(len + 1)))
		return NULL;
	for (p = (const unsigned char *)s; *p;) {
		size_t n = step(p, shown);
		if (*shown) {
			memcpy(o, shown, strlen(shown));
			o += strlen(shown);
		} else {
			memcpy(o, p, n);
			o += n;
		}
		p += n;
	}
	*o = 0;
	return out;
}
