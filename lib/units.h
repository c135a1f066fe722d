/* Units: the one place that turns job-file text into numbers ("80 MB", "1.5GiB", "100ms",
 * "95%", "yes") and numbers back into the text the reporters print ("76.3 MiB", "4.56 ms").
 * Parsing is strict: no hex, no negatives, no trailing garbage, no silent rounding. */
#ifndef IOTRIAL_UNITS_H
#define IOTRIAL_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Every parser below returns 0 and stores the value in *out, or returns -EINVAL (-ERANGE when
 * the value does not fit) and leaves *out alone. On error, if `why` is non-NULL, *why points to
 * a short lowercase phrase for the caller's message, e.g. "negative size". The phrase is either
 * static or, when it quotes the input, lives in a thread-local buffer that the next call of
 * any units_parse_* function on the same thread overwrites. On success *why is set to NULL.
 * Input is one token: no leading or trailing white space is skipped.
 */

/*
 * Parse a size in bytes. A bare number is bytes; units are case-sensitive: B; kB (or KB), MB,
 * GB, TB, PB are powers of 1000; KiB, MiB, GiB, TiB, PiB are powers of 1024. One optional
 * space may separate number and unit ("80 MB"). A decimal fraction is allowed ("1.5GiB") if
 * the result is a whole number of bytes. A lowercase trailing 'b' ("4kb") means bits and is
 * rejected. Overflow beyond UINT64_MAX is -ERANGE.
 */
int units_parse_size(const char *s, uint64_t *out, const char **why);

/*
 * Parse a duration into nanoseconds. Units: ns, us, ms, s, m or min (minutes), h.
 * A bare number is SECONDS ("5" = 5 s). Fractions are allowed ("1.5s", "0.5ms") if the result
 * is a whole number of nanoseconds ("0.5ns" is rejected). Same syntax and rejections as sizes.
 */
int units_parse_duration(const char *s, uint64_t *out_ns, const char **why);

/* Parse a plain non-negative decimal integer (no sign, no unit, no hex). */
int units_parse_uint(const char *s, uint64_t *out, const char **why);

/* Parse true/false, yes/no or on/off, in any case. */
int units_parse_bool(const char *s, bool *out, const char **why);

/*
 * Parse a finite decimal number (sign and exponent allowed; hex, inf and nan are not).
 * A trailing '%' divides by 100: "95%" gives 0.95.
 */
int units_parse_double(const char *s, double *out, const char **why);

/*
 * Formatters for the reporters. Each writes a NUL-terminated string into buf (truncated to
 * len - 1 characters) and returns what snprintf returns: the full length, which is >= len
 * when the text was truncated.
 */

/*
 * Format a byte count with the largest unit not above it, one decimal: "80.0 MB" (binary
 * false: powers of 1000) or "76.3 MiB" (binary true: powers of 1024). Below 1 kB / 1 KiB it
 * is whole bytes: "512 B". Units stop at PB / PiB, so the output parses back as a size.
 * A value that is no number (a null mean) is "n/a", in each of the formatters below too.
 */
size_t units_format_size(char *buf, size_t len, double bytes, bool binary);

/* Format a rate like units_format_size with "/s" appended: "112.4 MB/s", "107.2 MiB/s". */
size_t units_format_rate(char *buf, size_t len, double bytes_per_s, bool binary);

/*
 * Format a duration given in nanoseconds with three significant digits and the largest unit
 * of ns, us, ms, s not above it: "812 ns", "12.3 us", "4.56 ms", "1.23 s", "3600 s".
 */
size_t units_format_duration(char *buf, size_t len, double ns);

/*
 * Format a size the way a job file states it exactly, for echoing what it asked for: the
 * largest unit of which `bytes` is a whole multiple, "32 MiB", "80 MB", "4 KiB", "4 kB",
 * "1000 B". A value whole in both families (1 MB = 1000000 B is not whole in KiB, but
 * 1024000 B is 1000 KiB and 1024 kB) takes the larger unit, and `binary` breaks a tie.
 */
size_t units_format_size_exact(char *buf, size_t len, uint64_t bytes, bool binary);

/*
 * Format a count (an I/O rate) with three significant digits and a k (10^3), M (10^6) or
 * G (10^9) multiplier: "812", "81.2", "1.96k", "812k", "8.15M"; "0" for 0.
 */
size_t units_format_count(char *buf, size_t len, double v);

/*
 * The unit a column of rates is shown in: the largest of B/s, kB/s (KiB/s), MB/s, ... in
 * which the smallest finite, non-zero value `lo` is at least 1, so no cell is "0.00". Its
 * name goes to `name` (len bytes); returns its size in bytes per second.
 */
double units_rate_unit(double lo, bool binary, char *name, size_t len);

#endif
