/* Aligned text tables: the display width of a cell and one cell printed padded, for the
 * text summary's tables (text.c, text_lat.c). */
#ifndef IOTRIAL_CELLS_H
#define IOTRIAL_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Display width of a UTF-8 string (the ± sign is two bytes, one column). */
size_t cells_width(const char *s);

/* `s` padded to width `w`, left- or right-aligned, then two spaces, or a newline after the
 * row's `last` cell. */
void cells_put(FILE *out, const char *s, size_t w, bool left, bool last);

#endif
