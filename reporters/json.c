/* results.json (schema "iotrial.results/1"): the results as the field tables of model/rfield.h
 * write them, dumped with jansson. Every key of the contract in DESIGN.md is present; what
 * could not be measured is null, never 0. */
#include <errno.h>
#include <jansson.h>

#include "model/rfield.h"
#include "reporters/reporter.h"

static int json_report(const struct results *r, FILE *out)
{
	json_t *root;
	int ret = rf_write(r, &root);

	if (ret < 0)
		return ret;
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(root);
	if (ret < 0 || fputc('\n', out) == EOF)
		return -EIO;
	return 0;
}

const struct rep_ops rep_json = {
    .name = "json",
    .file = "results.json",
    .write = json_report,
};
