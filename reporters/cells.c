/* Aligned text tables (see cells.h). */
#include "reporters/cells.h"

size_t cells_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void cells_put(FILE *out, const char *s, size_t w, bool left, bool last)
{
	size_t pad = w - cells_width(s);

	if (!left)
		fprintf(out, "%*s", (int)pad, "");
	fputs(s, out);
	if (left && !last)
		fprintf(out, "%*s", (int)pad, "");
	fputs(last ? "\n" : "  ", out);
}
