/* The text summary's report table (the job file's `report: {table: ...}`): the values of
 * one key as columns, a job's metric or a device's description per row (see text_layout.h). */
#include "reporters/text_layout.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/utf8.h"
#include "model/metrics.h"
#include "reporters/cells.h"

#define CELL CELLS_CELL
#define NA   "n/a"

#define VARIANT_LEN 256

/* A parameter's value as text: strings as they are (cut to `len` between characters), sizes
 * in bytes, as in the names. */
static void param_text(char *b, size_t len, const struct param *p)
{
	if (p->type == PV_STR)
		snprintf(b, len, "%.*s", (int)utf8_cut(p->s, len - 1), p->s);
	else if (p->type == PV_BOOL)
		snprintf(b, len, "%s", p->b ? "true" : "false");
	else if (p->type == PV_REAL)
		snprintf(b, len, "%g", p->d);
	else
		snprintf(b, len, "%llu", (unsigned long long)p->u);
}

static bool param_same(const struct param *a, const struct param *b)
{
	if (a->type != b->type)
		return false;
	if (a->type == PV_STR)
		return !strcmp(a->s, b->s);
	return a->u == b->u && a->b == b->b && (a->type != PV_REAL || a->d == b->d);
}

/* What tells an instance apart from the others of its job in one column: its matrix keys
 * other than the column's, "buffer_size=4096,file_size=80000000" ("" when none). */
static void variant(char *b, size_t len, const struct instance_result *ir, const char *column)
{
	size_t n = 0;

	b[0] = 0;
	for (uint32_t place = 1; place <= ir->nparams; place++)
		for (size_t k = 0; k < ir->nparams; k++) {
			const struct param *p = &ir->params[k];
			char v[CELL];
			if (p->matrix != place || !strcmp(p->key, column))
				continue;
			param_text(v, sizeof(v), p);
			n += (size_t)snprintf(b + n, n < len ? len - n : 0, "%s%s=%s", n ? "," : "",
					      p->key, v);
		}
}

/* The instance of `job` in column `col` whose variant is `var`, or NULL. */
static const struct instance_result *table_cell(const struct results *r, const char *job,
						const char *key, const struct param *col,
						const char *var)
{
	char v[VARIANT_LEN];

	for (size_t i = 0; i < r->ninst; i++) {
		const struct param *p = results_param(&r->inst[i], key);
		if (strcmp(r->inst[i].job, job) || !p || !param_same(p, col))
			continue;
		variant(v, sizeof(v), &r->inst[i], key);
		if (!strcmp(v, var))
			return &r->inst[i];
	}
	return NULL;
}

/* A layout table's cell: the mean of the row's metric, with its unit. */
static void format_metric(char *b, const char *metric, const struct instance_summary *s,
			  bool binary)
{
	const struct metric *m = metric_find(metric);

	if (m && m->format == MF_SECONDS)
		cells_num(b, metric_stat(s, m)->mean, "%.3f s");
	else if (m)
		cells_value(b, m, metric_stat(s, m)->mean, binary);
	else
		snprintf(b, CELL, NA);
}

/* CPU seconds per GB moved (GiB with units: binary): the cost the paper compares between
 * file systems. */
static void format_cpu(char *b, const struct instance_result *ir, bool binary)
{
	double v = results_cpu_per_byte(ir) * (binary ? 1073741824.0 : 1e9);

	if (isfinite(v))
		snprintf(b, CELL, "%.3f s/%s", v, binary ? "GiB" : "GB");
	else
		snprintf(b, CELL, NA);
}

/* A descriptive row's cell: what the job file says about the column's device. */
static void about_cell(char *b, const struct table_row *row, const struct param *col)
{
	snprintf(b, CELL, NA);
	for (size_t k = 0; col->type == PV_STR && k < row->nfacts; k++)
		if (!strcmp(row->facts[k].key, col->s))
			snprintf(b, CELL, "%.*s", (int)utf8_cut(row->facts[k].value, CELL - 1),
				 row->facts[k].value);
}

#define LAYOUT_COLS  32
#define LAYOUT_LINES 256

/* One line of the layout table: its title and a cell per column. */
struct layout_line {
	char label[240];
	char var[VARIANT_LEN]; /* a metric row's variant (see variant()) */
	char cell[LAYOUT_COLS][CELL];
};

/* The lines of a metric row: one, or, when the row's job has several instances in a column
 * (a matrix over more than the column's key), one per variant, its title saying which,
 * rather than a first match standing for all. */
static size_t row_lines(const struct results *r, const struct table_row *row,
			const struct param *const *colv, size_t ncol, struct layout_line *out,
			size_t room, bool *cut)
{
	const char *title = row->label ? row->label : row->job;
	char var[VARIANT_LEN];
	size_t nvar = 0;

	for (size_t i = 0; i < r->ninst; i++) {
		bool seen = false;
		if (strcmp(r->inst[i].job, row->job) ||
		    !results_param(&r->inst[i], r->table.columns))
			continue;
		variant(var, sizeof(var), &r->inst[i], r->table.columns);
		for (size_t k = 0; k < nvar && !seen; k++)
			seen = !strcmp(out[k].var, var);
		if (!seen && nvar == room)
			*cut = true;
		else if (!seen)
			snprintf(out[nvar++].var, VARIANT_LEN, "%s", var);
	}
	if (!nvar)
		out[nvar++].var[0] = 0;
	for (size_t v = 0; v < nvar; v++) {
		if (nvar > 1)
			snprintf(out[v].label, sizeof(out[v].label), "%.*s [%.*s]",
				 (int)utf8_cut(title, 100), title, (int)utf8_cut(out[v].var, 120),
				 out[v].var);
		else
			snprintf(out[v].label, sizeof(out[v].label), "%.*s",
				 (int)utf8_cut(title, 150), title);
		for (size_t c = 0; c < ncol; c++) {
			const struct instance_result *ir =
			    table_cell(r, row->job, r->table.columns, colv[c], out[v].var);
			if (ir && !strcmp(row->metric, METRIC_TABLE_CPU))
				format_cpu(out[v].cell[c], ir, r->units == UNITS_BINARY);
			else if (ir)
				format_metric(out[v].cell[c], row->metric, &ir->summary,
					      r->units == UNITS_BINARY);
			else
				snprintf(out[v].cell[c], CELL, NA);
		}
	}
	return nvar;
}

/* report: {table: ...}: the values of one key as columns, a job's metric or a device's
 * description per row; n/a where a job did not run on a column's device. */
int text_layout(const struct results *r, FILE *out)
{
	const struct table_spec *t = &r->table;
	const struct param *colv[LAYOUT_COLS];
	struct layout_line *lines;
	size_t ncol = 0, nlines = 0, lw = 0, cw[LAYOUT_COLS];
	char head[LAYOUT_COLS][CELL];
	bool cut = false;

	if (!t->columns)
		return 0;
	for (size_t i = 0; i < r->ninst; i++) {
		const struct param *p = results_param(&r->inst[i], t->columns);
		bool seen = false;
		for (size_t c = 0; p && c < ncol && !seen; c++)
			seen = param_same(p, colv[c]);
		if (p && !seen && ncol == LAYOUT_COLS)
			cut = true;
		else if (p && !seen)
			colv[ncol++] = p;
	}
	if (!(lines = calloc(LAYOUT_LINES, sizeof(*lines))))
		return -ENOMEM;
	for (size_t k = 0; k < t->nrows; k++) {
		const struct table_row *row = &t->rows[k];
		if (nlines == LAYOUT_LINES) {
			cut = true;
		} else if (row->about) {
			const char *title = row->label ? row->label : row->about;
			snprintf(lines[nlines].label, sizeof(lines[nlines].label), "%.*s",
				 (int)utf8_cut(title, 150), title);
			for (size_t c = 0; c < ncol; c++)
				about_cell(lines[nlines].cell[c], row, colv[c]);
			nlines++;
		} else {
			nlines += row_lines(r, row, colv, ncol, lines + nlines,
					    LAYOUT_LINES - nlines, &cut);
		}
	}
	for (size_t c = 0; c < ncol; c++) {
		param_text(head[c], CELL, colv[c]);
		cw[c] = cells_width(head[c]);
	}
	for (size_t l = 0; l < nlines; l++) {
		lw = cells_width(lines[l].label) > lw ? cells_width(lines[l].label) : lw;
		for (size_t c = 0; c < ncol; c++)
			cw[c] = cells_width(lines[l].cell[c]) > cw[c]
				    ? cells_width(lines[l].cell[c])
				    : cw[c];
	}
	fputc('\n', out);
	cells_put(out, "", lw, true, !ncol);
	for (size_t c = 0; c < ncol; c++)
		cells_put(out, head[c], cw[c], false, c + 1 == ncol);
	for (size_t l = 0; l < nlines; l++) {
		cells_put(out, lines[l].label, lw, true, !ncol);
		for (size_t c = 0; c < ncol; c++)
			cells_put(out, lines[l].cell[c], cw[c], false, c + 1 == ncol);
	}
	if (cut)
		fprintf(
		    out,
		    "(the table shows its first %d columns and %d lines; results.json holds every instance)\n",
		    LAYOUT_COLS, LAYOUT_LINES);
	free(lines);
	return 0;
}
