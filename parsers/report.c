/* report: {table: {columns: KEY, rows: [{job, metric, label} or {about, label}, ...]}} — a
 * table laid out like the published one (devices as columns, metrics as rows, and rows that
 * describe the devices). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "model/metrics.h"
#include "parsers/yp.h"

static const char *const report_keys[] = {"table", NULL};
static const char *const table_keys[] = {"columns", "rows", NULL};
static const char *const row_keys[] = {"job", "metric", "label", "about", NULL};

static void parse_row(struct yp *p, struct exp_spec *s, struct table_row *row, const yaml_node_t *m)
{
	if (!yp_mapping_ok(p, m, "rows", "a row {job, metric, label} or {about, label}"))
		return;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		int i = yp_key_index(p, kn, row_keys, " in a table row");
		char *text;
		bool known = false;

		if (i < 0 || !(text = yp_text(p, vn, row_keys[i], "a value")))
			continue;
		if (i == 0) {
			for (size_t k = 0; k < s->njobs; k++)
				known |= !strcmp(s->jobs[k].name, text);
			if (!known)
				yp_err(p, vn, "job", "no job is named '%s'", text);
			free(row->job);
			row->job = text;
		} else if (i == 1) {
			char list[160];
			metric_list(list, sizeof(list), ", ");
			if (!metric_find(text) && strcmp(text, METRIC_TABLE_CPU))
				yp_err(p, vn, "metric", "unknown metric '%s' (expected %s or %s)",
				       text, list, METRIC_TABLE_CPU);
			free(row->metric);
			row->metric = text;
		} else if (i == 2) {
			free(row->label);
			row->label = text;
		} else {
			free(row->about);
			row->about = text;
		}
	}
	if (row->about && (row->job || row->metric))
		yp_err(p, m, "rows", "a row shows a job's metric or a device's 'about', not both");
	else if (!row->about && (!row->job || !row->metric))
		yp_err(p, m, "rows", "a row needs a job and a metric (or 'about')");
}

/* A descriptive row: copy each device's fact now, so results.json carries it. */
static void resolve_about(struct yp *p, const struct exp_spec *s, struct table_row *row,
			  const yaml_node_t *m)
{
	if (!(row->facts = calloc(s->ndevices ? s->ndevices : 1, sizeof(*row->facts))))
		return;
	for (size_t d = 0; d < s->ndevices; d++)
		for (size_t k = 0; k < s->devices[d].nabout; k++) {
			const struct device_fact *f = &s->devices[d].about[k];
			struct device_fact *to = &row->facts[row->nfacts];
			if (strcmp(f->key, row->about))
				continue;
			to->key = strdup(s->devices[d].name);
			to->value = strdup(f->value);
			row->nfacts++;
			if (!to->key || !to->value)
				yp_err(p, m, "about", "out of memory");
			break;
		}
}

static void parse_table(struct yp *p, struct exp_spec *s, const yaml_node_t *m)
{
	struct table_spec *t = &s->table;

	if (!yp_mapping_ok(p, m, "table", "a table {columns, rows}"))
		return;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		int i = yp_key_index(p, kn, table_keys, " in a table");

		if (i == 0) {
			char *text = yp_text(p, vn, "columns", "a job key");
			if (text && !job_key_find(text))
				yp_err(p, vn, "columns", "'%s' is not a job key", text);
			free(t->columns);
			t->columns = text;
		} else if (i == 1) {
			size_t n;
			if (vn->type != YAML_SEQUENCE_NODE) {
				yp_err(p, vn, "rows", "expected a list of rows, got %s",
				       yp_node_kind(vn));
				continue;
			}
			n = (size_t)(vn->data.sequence.items.top - vn->data.sequence.items.start);
			if (!(t->rows = calloc(n ? n : 1, sizeof(*t->rows))))
				return;
			for (yaml_node_item_t *it = vn->data.sequence.items.start;
			     it < vn->data.sequence.items.top; it++)
				parse_row(p, s, &t->rows[t->nrows++], yp_node(p, *it));
		}
	}
	if (!t->columns || !t->nrows) {
		yp_err(p, m, "table", "a table needs columns and rows");
		return;
	}
	for (size_t k = 0; k < t->nrows; k++) {
		if (!t->rows[k].about)
			continue;
		if (strcmp(t->columns, "device"))
			yp_err(p, m, "about",
			       "a row with 'about' describes devices: it needs 'columns: device'");
		else
			resolve_about(p, s, &t->rows[k], m);
	}
}

void yp_parse_report(struct yp *p, struct exp_spec *s, const yaml_node_t *m)
{
	if (!yp_mapping_ok(p, m, "report", "report settings"))
		return;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++)
		if (yp_key_index(p, yp_node(p, pr->key), report_keys, " in report") == 0)
			parse_table(p, s, yp_node(p, pr->value));
}
