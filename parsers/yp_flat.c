/* A structured job-key value written as YAML (a mapping or a list of scalars) turned into
 * the one-line text its key's parser reads (model/wlopts.h): {4KiB: 60, 64KiB: 40} becomes
 * "4KiB:60,64KiB:40", [50, 99] becomes "50,99". --set and matrix values write that text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/yp.h"

static bool append(char **out, size_t *len, const char *part, const char *sep)
{
	size_t add = strlen(part) + strlen(sep);
	char *n = realloc(*out, *len + add + 1);

	if (!n)
		return false;
	snprintf(n + *len, add + 1, "%s%s", sep, part);
	*len += add;
	*out = n;
	return true;
}

static bool append_text(struct yp *p, const yaml_node_t *n, const char *key, char **out,
			size_t *len, const char *sep)
{
	char *t = yp_text(p, n, key, "a value");
	bool ok = t && append(out, len, t, sep);

	if (t && !ok)
		p->oom = true;
	free(t);
	return ok;
}

char *yp_text_flat(struct yp *p, const yaml_node_t *n, const char *key)
{
	char *out = NULL;
	size_t len = 0;
	bool ok = true;

	if (n->type == YAML_SCALAR_NODE)
		return yp_text(p, n, key, "a value");
	if (n->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *pr = n->data.mapping.pairs.start;
		     ok && pr < n->data.mapping.pairs.top; pr++) {
			ok = append_text(p, yp_node(p, pr->key), key, &out, &len,
					 pr == n->data.mapping.pairs.start ? "" : ",") &&
			     append_text(p, yp_node(p, pr->value), key, &out, &len, ":");
		}
	} else {
		for (yaml_node_item_t *it = n->data.sequence.items.start;
		     ok && it < n->data.sequence.items.top; it++)
			ok = append_text(p, yp_node(p, *it), key, &out, &len,
					 it == n->data.sequence.items.start ? "" : ",");
	}
	if (ok && !out)
		yp_err(p, n, key, "expected a value, got an empty %s",
		       n->type == YAML_MAPPING_NODE ? "mapping" : "list");
	if (!ok || !out) {
		free(out);
		return NULL;
	}
	return out;
}
