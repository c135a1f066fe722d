/* Aligned text tables: the display width of a cell and one cell printed padded, for the
 * text summary's tables (text.c, text_lat.c). */
#ifndef IOTRIAL_CELLS_H
#define IOTRIAL_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The size of a cell's buffer. */
#define CELLS_CELL 48

struct metric;

/* Display width of a UTF-8 string as cells_put shows it (the ± sign is two bytes, one
 * column; a control character takes the columns of its escape, lib/visible.h). */
size_t cells_width(const char *s);

/* `s` padded to width `w`, left- or right-aligned, then two spaces, or a newline after the
 * row's `last` cell; its control characters written out (lib/visible.h). */
void cells_put(FILE *out, const char *s, size_t w, bool left, bool last);

/* `v` by printf format `f` into cell `b` (CELLS_CELL bytes); n/a when not finite. */
void cells_num(char *b, double v, const char *f);

/* Value `v` of metric `m` in cell `b`: a rate in the job file's units (`binary`), a duration
 * in a unit that suits it, a count or seconds as numbers; n/a when not measured. */
void cells_value(char *b, const struct metric *m, double v, bool binary);

#endif
