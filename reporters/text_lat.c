/* The latency table of the text summary (see text_lat.h), its columns aligned, and a line
 * under it for each instance whose row says n/a for a reason. */
#include "reporters/text_lat.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/visible.h"
#include "reporters/cells.h"
#include "reporters/lat_table.h"

int text_latency(const struct results *r, FILE *out)
{
	struct lat_table t;
	size_t w[LAT_MAX_COLS];
	char why[1024];

	if (lat_table_init(&t, r) < 0)
		return -ENOMEM;
	if (!t.nrows)
		return 0;
	for (size_t c = 0; c < t.ncols; c++) {
		w[c] = 0;
		for (size_t l = 0; l < t.nrows; l++) {
			const char *s = c ? t.rows[l].cell[c] : t.rows[l].name;
			if (cells_width(s) > w[c])
				w[c] = cells_width(s);
		}
	}
	fprintf(out, "\nlatency (every I/O of the kept trials, pooled):\n");
	for (size_t l = 0; l < t.nrows; l++)
		for (size_t c = 0; c < t.ncols; c++)
			cells_put(out, c ? t.rows[l].cell[c] : t.rows[l].name, w[c], c == 0,
				  c + 1 == t.ncols);
	if (t.cut)
		fprintf(out, "(the first %d percentiles; results.json holds every one)\n",
			LAT_MAX_PCOLS);
	for (size_t i = 0; i < r->ninst; i++)
		if (lat_table_why(why, sizeof(why), &r->inst[i])) {
			/* It names the instance, a string from results.json. */
			visible_printf(out, "(%s)", why);
			fputc('\n', out);
		}
	lat_table_release(&t);
	return 0;
}
