/* Strings shown on a terminal as text, whatever they hold. A string from a results.json
 * (someone else's run), a job file or a path may carry control characters: ESC [ or an OSC
 * would rewrite the screen or the window title, a \r or \n fake a line. Shown here, each
 * control character is written out instead, so it is seen and does nothing:
 *
 *   \n \r \t                    for those three;
 *   \xHH, one per byte          for the other C0 controls, DEL (\x7f), the C1 controls
 *                               U+0080 to U+009F (two bytes each in UTF-8: U+009B, the
 *                               terminal's CSI, is \xc2\x9b), and each byte that is not part
 *                               of a UTF-8 character (a Latin-1 file name, a cut character).
 *
 * Everything else (printable ASCII and UTF-8 text) is written as it is; a backslash too, so
 * "\x1b" typed into a name reads the same as an escaped ESC (results.json holds the exact
 * string). The text summary, `iotrial compare` and diagnostics all go through this file. */
#ifndef IOTRIAL_VISIBLE_H
#define IOTRIAL_VISIBLE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Write `s` (NULL: nothing) to `out` as shown above. */
void visible_puts(FILE *out, const char *s);

/* Format like printf, then write the whole text as visible_puts does: a newline in the
 * format is written out as \n too, so callers write their line ends with fputc. */
void visible_printf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void visible_vprintf(FILE *out, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* The columns `s` takes shown: one per character, and each escape its length (an
 * East Asian wide character counts one, as the tables always counted it). */
size_t visible_width(const char *s);

/* `s` as shown, a new string the caller frees; NULL when out of memory. */
char *visible_dup(const char *s);

#endif
