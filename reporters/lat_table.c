/* The pooled latency table (see lat_table.h). */
#include "reporters/lat_table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "model/pctlist.h"

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
			if (n == LAT_MAX_PCOLS) {
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
		units_format_duration(b, LAT_CELL, v);
	else
		snprintf(b, LAT_CELL, "n/a");
}

/* Row `what` ("", "read", ...) of instance `ir`: its pooled figures of kind `k`. */
static void fill(struct lat_row *row, const struct instance_result *ir, int k, const char *what,
		 const uint32_t *ppm, size_t npc)
{
	const struct pooled_lat *pl = &ir->summary.pooled[k];

	snprintf(row->name, sizeof(row->name), "%s%s%s", ir->name, *what ? " " : "", what);
	if (pl->ios >= 1000)
		units_format_count(row->cell[1], LAT_CELL, (double)pl->ios);
	else
		snprintf(row->cell[1], LAT_CELL, "%llu", (unsigned long long)pl->ios);
	for (size_t c = 0; c < npc; c++) {
		uint32_t k2 = 0;
		while (k2 < ir->pcts.n && pct_ppm(ir->pcts.pct[k2]) != ppm[c])
			k2++;
		if (k2 == ir->pcts.n)
			snprintf(row->cell[2 + c], LAT_CELL, "-");
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

int lat_table_init(struct lat_table *t, const struct results *r)
{
	static const struct {
		int kind;
		const char *what;
	} kinds[] = {
	    {LAT_READ, "read"}, {LAT_WRITE, "write"}, {LAT_SLAT, "slat"}, {LAT_CLAT, "clat"}};
	uint32_t ppm[LAT_MAX_PCOLS];
	double pct[LAT_MAX_PCOLS];
	size_t npc;

	memset(t, 0, sizeof(*t));
	if (!(npc = columns(r, ppm, pct, &t->cut)))
		return 0;
	if (!(t->rows = calloc(5 * r->ninst + 1, sizeof(*t->rows))))
		return -ENOMEM;
	t->ncols = npc + 3;
	snprintf(t->rows[0].name, sizeof(t->rows[0].name), "job");
	snprintf(t->rows[0].cell[1], LAT_CELL, "I/Os");
	for (size_t c = 0; c < npc; c++)
		pct_label(t->rows[0].cell[2 + c], LAT_CELL, pct[c]);
	snprintf(t->rows[0].cell[2 + npc], LAT_CELL, "max");
	t->nrows = 1;
	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		if (ir->background || !ir->pcts.n)
			continue;
		fill(&t->rows[t->nrows++], ir, LAT_ALL, "", ppm, npc);
		for (size_t k = 0; k < 4; k++)
			if (k < 2 ? mixed(ir) : ir->submit_latency)
				fill(&t->rows[t->nrows++], ir, kinds[k].kind, kinds[k].what, ppm,
				     npc);
	}
	return 0;
}

void lat_table_release(struct lat_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

bool lat_table_why(char *buf, size_t size, const struct instance_result *ir)
{
	uint32_t n = 0;

	for (int k = 0; k < LAT_NKINDS; k++)
		if (ir->summary.pooled[k].no_hist > n)
			n = ir->summary.pooled[k].no_hist;
	if (ir->background || !ir->pcts.n || !n)
		return false;
	snprintf(
	    buf, size,
	    "n/a for %s: %u kept trial%s no latency histogram to pool; the checkpoint its run was resumed from did not keep them",
	    ir->name, n, n == 1 ? " has" : "s have");
	return true;
}
