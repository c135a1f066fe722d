/* compare: entries — two partial points (a and b), a metric, a confidence, paired or not.
 * The planner matches the points to job instances. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "model/metrics.h"
#include "parsers/yp.h"

static const char *const compare_keys[] = {"a", "b", "metric", "confidence", "paired", NULL};

static void parse_entry(struct yp *p, struct exp_spec *s, const yaml_node_t *m)
{
	struct compare_spec *c = &s->compares[s->ncompares];
	bool have_a = false, have_b = false;

	if (!yp_mapping_ok(p, m, "compare", "a comparison"))
		return;
	memset(c, 0, sizeof(*c));
	c->confidence = s->rep.confidence;
	c->loc = yp_loc(p, m);
	s->ncompares++;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		const char *key = (const char *)kn->data.scalar.value, *why;
		int i = yp_key_index(p, kn, compare_keys, " in compare");
		char *text;
		bool b;

		if (i == 0 || i == 1) {
			struct matrix_point *pt = i == 0 ? &c->a : &c->b;
			spec_point_release(pt);
			yp_parse_point(p, vn, key, true, pt);
			*(i == 0 ? &have_a : &have_b) = true;
			continue;
		}
		if (i < 0 || !(text = yp_text(p, vn, key, "a value")))
			continue;
		if (i == 2) {
			char list[128];
			metric_list(list, sizeof(list), " or ");
			if (!metric_find(text))
				yp_err(p, vn, key, "unknown metric '%s' (expected %s)", text, list);
			else
				c->metric = strdup(text);
		} else if (i == 3) {
			if (units_parse_double(text, &c->confidence, &why) < 0 ||
			    !(c->confidence > 0 && c->confidence < 1))
				yp_err(p, vn, key,
				       "expected a fraction like 0.95 or 95%%, got '%s'", text);
		} else if (units_parse_bool(text, &b, &why) < 0) {
			yp_err(p, vn, key, "expected true or false, got '%s'", text);
		} else {
			c->paired = b;
		}
		free(text);
	}
	if (!have_a || !have_b)
		yp_err(p, m, "compare", "an entry needs both a and b");
}

void yp_parse_compare(struct yp *p, struct exp_spec *s, const yaml_node_t *seq)
{
	size_t n;

	if (seq->type != YAML_SEQUENCE_NODE) {
		yp_err(p, seq, "compare", "expected a list of comparisons, got %s",
		       yp_node_kind(seq));
		return;
	}
	n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
	if (!(s->compares = calloc(n ? n : 1, sizeof(*s->compares))))
		return;
	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++)
		parse_entry(p, s, yp_node(p, *it));
}
