/* UTF-8 as the outputs need it: how long a character is, and where a string may be cut
 * without splitting one (a cut half character is not UTF-8, and not XML). */
#ifndef IOTRIAL_UTF8_H
#define IOTRIAL_UTF8_H

#include <stdarg.h>
#include <stddef.h>

/* The length of the UTF-8 sequence at `s` (RFC 3629: no overlong form, no surrogate,
 * nothing past U+10FFFF): 1 to 4, or 0 when it is not one (a stray byte, a sequence cut
 * short by the string's end). Reads no further than the first byte that fails. */
size_t utf8_seq_len(const unsigned char *s);

/* How many bytes of `s` to keep to cut it to at most `max` bytes where a character starts:
 * strlen(s) when it is no longer, else `max` backed over continuation bytes. */
size_t utf8_cut(const char *s, size_t max);

/* snprintf whose cut, when the text does not fit in `len` bytes, falls where a character
 * starts (utf8_cut of the whole text). Returns what snprintf returns: the length of the
 * whole text, so a result >= len says it was cut. Out of memory, it cuts as snprintf does. */
int utf8_snprintf(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int utf8_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
