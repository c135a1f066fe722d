/* The latency table of the text summary (see text_lat.h): one column per percentile any
 * instance asks for, in ascending order, "-" under one an instance did not ask for. */
#include "reporters/text_lat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "model/pctlist.h"
#include "reporters/cells.h"

#define CELL 48
/* Columns of percentiles at most (the union of the instances' lists); then a note. */
#define MAX_PCOLS 32
/* job, I/Os, the percentiles, max */
#define MAX_COLS (MAX_PCOLS + 3)

/* cell[0] stays empty: the name is whole in `name` (a sweep's names often differ only at
 * their ends). */
struct lat_row {
	char name[512];
	char cell[MAX_COLS][CELL];
};

/* The percentiles of every measured instance, ascending, each once, in ppm. */
static size_t columns(const struct results *r, uint32_t *ppm, double *pct, bool *cut)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		for (uint32_t k = 0; !ir->background && k < ir->pcts.n; k++) {
			uint32_t v = pct_ppm(ir->pcts.pct[k]);
			size_t at = 0;
			while (at < n && ppm[at] < v)
				at++;
			if (at < n && ppm[at] == v)
				continue;
			if (n == MAX_PCOLS) {
				*cut = true;
				continue;
			}
			memmove(ppm + at + 1, ppm + at, (n - at) * sizeof(*ppm));
			memmove(pct + at + 1, pct + at, (n - at) * sizeof(*pct));
			ppm[at] = v;
			pct[at] = ir->pcts.pct[k];
			n++;
		}
	}
	return n;
}

static void fmt_ns(char *b, double v)
{
	if (isfinite(v))
		units_format_duration(b, CELL, v);
	else
		snprintf(b, CELL, "n/a");
}

/* Row `what` ("", "read", ...) of instance `ir`: its pooled figures of kind `k`. */
static void fill(struct lat_row *row, const struct instance_result *ir, int k, const char *what,
		 const uint32_t *ppm, size_t npc)
{
	const struct pooled_lat *pl = &ir->summary.pooled[k];

	snprintf(row->name, sizeof(row->name), "%s%s%s", ir->name, *what ? " " : "", what);
	if (pl->ios >= 1000)
		units_format_count(row->cell[1], CELL, (double)pl->ios);
	else
		snprintf(row->cell[1], CELL, "%llu", (unsigned long long)pl->ios);
	for (size_t c = 0; c < npc; c++) {
		uint32_t k2 = 0;
		while (k2 < ir->pcts.n && pct_ppm(ir->pcts.pct[k2]) != ppm[c])
			k2++;
		if (k2 == ir->pcts.n)
			snprintf(row->cell[2 + c], CELL, "-");
		else
			fmt_ns(row->cell[2 + c], pl->p[k2]);
	}
	fmt_ns(row->cell[2 + npc], pl->max);
}

static bool mixed(const struct instance_result *ir)
{
	return ir->workload &&
	       (!strcmp(ir->workload, "readwrite") || !strcmp(ir->workload, "randrw"));
}

int text_latency(const struct results *r, FILE *out)
{
	static const struct {
		int kind;
		const char *what;
	} kinds[] = {
	    {LAT_READ, "read"}, {LAT_WRITE, "write"}, {LAT_SLAT, "slat"}, {LAT_CLAT, "clat"}};
	uint32_t ppm[MAX_PCOLS];
	double pct[MAX_PCOLS];
	bool cut = false;
	size_t npc = columns(r, ppm, pct, &cut), ncol = npc + 3, n = 0, w[MAX_COLS];
	struct lat_row *rows;

	if (!npc)
		return 0;
	if (!(rows = calloc(5 * r->ninst + 1, sizeof(*rows))))
		return -ENOMEM;
	snprintf(rows[0].name, sizeof(rows[0].name), "job");
	snprintf(rows[0].cell[1], CELL, "I/Os");
	for (size_t c = 0; c < npc; c++)
		pct_label(rows[0].cell[2 + c], CELL, pct[c]);
	snprintf(rows[0].cell[2 + npc], CELL, "max");
	n = 1;
	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		if (ir->background || !ir->pcts.n)
			continue;
		fill(&rows[n++], ir, LAT_ALL, "", ppm, npc);
		for (size_t k = 0; k < 4; k++)
			if (k < 2 ? mixed(ir) : ir->submit_latency)
				fill(&rows[n++], ir, kinds[k].kind, kinds[k].what, ppm, npc);
	}
	for (size_t c = 0; c < ncol; c++) {
		w[c] = 0;
		for (size_t l = 0; l < n; l++) {
			const char *t = c ? rows[l].cell[c] : rows[l].name;
			if (cells_width(t) > w[c])
				w[c] = cells_width(t);
		}
	}
	fprintf(out, "\nlatency (every I/O of the kept trials, pooled):\n");
	for (size_t l = 0; l < n; l++)
		for (size_t c = 0; c < ncol; c++)
			cells_put(out, c ? rows[l].cell[c] : rows[l].name, w[c], c == 0,
				  c + 1 == ncol);
	if (cut)
		fprintf(out, "(the first %d percentiles; results.json holds every one)\n",
			MAX_PCOLS);
	free(rows);
	return 0;
}
