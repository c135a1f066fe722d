/* UTF-8 lengths and cuts (see utf8.h). */
#include "lib/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t utf8_seq_len(const unsigned char *s)
{
	size_t n = s[0] < 0x80			  ? 1
		   : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
		   : s[0] >= 0xe0 && s[0] <= 0xef ? 3
		   : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
						  : 0;
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	/* A NUL fails the range, so a sequence cut short by the end is never read past. */
	for (size_t k = 1; k < n; k++, lo = 0x80, hi = 0xbf)
		if (s[k] < lo || s[k] > hi)
			return 0;
	return n;
}

size_t utf8_cut(const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);

	if (n <= max)
		return n;
	/* s[max] is the first byte left out: while it continues a character, that character
	 * starts earlier, so it goes too. */
	for (n = max; n && ((unsigned char)s[n] & 0xc0) == 0x80;)
		n--;
	return n;
}

int utf8_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
	char *whole = NULL;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(buf, len, fmt, ap);
	/* Cut: format the whole text again, to know where its characters start. */
	if (n >= 0 && (size_t)n >= len && len && vasprintf(&whole, fmt, again) >= 0) {
		size_t keep = utf8_cut(whole, len - 1);
		memcpy(buf, whole, keep);
		buf[keep] = 0;
		free(whole);
	}
	va_end(again);
	return n;
}

int utf8_snprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = utf8_vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}
