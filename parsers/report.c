/* report: {table: {columns: KEY, rows: [{job, metric, label}, ...]}} — a table laid out like
 * the published one (devices as columns, metrics as rows). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "model/metrics.h"
#include "parsers/yp.h"

static const char *const report_keys[] = {"table", NULL};
static const char *const table_keys[] = {"columns", "rows", NULL};
static const char *const row_keys[] = {"job", "metric", "label", NULL};

static void parse_row(struct yp *p, struct exp_spec *s, struct table_row *row, const yaml_node_t *m)
{
	if (!yp_mapping_ok(p, m, "rows", "a row {job, metric, label}"))
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
			char list[128];
			metric_list(list, sizeof(list), " or ");
			if (!metric_find(text))
				yp_err(p, vn, "metric", "unknown metric '%s' (expected %s)", text,
				       list);
			free(row->metric);
			row->metric = text;
		} else {
			free(row->label);
			row->label = text;
		}
	}
	if (!row->job || !row->metric)
		yp_err(p, m, "rows", "a row needs a job and a metric");
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
	if (!t->columns || !t->nrows)
		yp_err(p, m, "table", "a table needs columns and rows");
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
