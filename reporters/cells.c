/* Aligned text tables (see cells.h). */
#include "reporters/cells.h"

#include <math.h>

#include "lib/units.h"
#include "lib/visible.h"
#include "model/metrics.h"

size_t cells_width(const char *s)
{
	return visible_width(s);
}

/* A cell may hold a string from results.json (a job name, a matrix value): its control
 * characters are written out, and the padding counts them as shown. */
void cells_put(FILE *out, const char *s, size_t w, bool left, bool last)
{
	size_t pad = w - cells_width(s);

	if (!left)
		fprintf(out, "%*s", (int)pad, "");
	visible_puts(out, s);
	if (left && !last)
		fprintf(out, "%*s", (int)pad, "");
	fputs(last ? "\n" : "  ", out);
}

void cells_num(char *b, double v, const char *f)
{
	if (isfinite(v))
		snprintf(b, CELLS_CELL, f, v);
	else
		snprintf(b, CELLS_CELL, "n/a");
}

void cells_value(char *b, const struct metric *m, double v, bool binary)
{
	if (!isfinite(v))
		snprintf(b, CELLS_CELL, "n/a");
	else if (m->format == MF_RATE)
		units_format_rate(b, CELLS_CELL, v, binary);
	else if (m->format == MF_DURATION)
		units_format_duration(b, CELLS_CELL, v);
	else if (m->format == MF_COUNT)
		cells_num(b, v, "%.0f");
	else
		cells_num(b, v, "%.3f");
}
