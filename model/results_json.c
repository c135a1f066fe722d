/* results.json → struct results (see results_json.h), with jansson: the file is parsed, its
 * schema checked, and the rest read by the field tables (rfield.h, rf_read.c), whose typed
 * getters do every check, so nothing past them trusts the file. Parsing stops after
 * MAX_ERRORS problems. */
#include "model/results_json.h"

#include "model/rfield.h"
#include "model/rj.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rj_from_json(struct rj *c, json_t *root)
{
	struct src_loc loc = {c->name, 0, 0};
	json_t *schema = json_is_object(root) ? json_object_get(root, "schema") : NULL;

	if (!json_is_string(schema)) {
		diag_add(c->d, &loc, "not an iotrial results file (no \"schema\": \"%s\")",
			 RF_SCHEMA);
		return -EINVAL;
	}
	if (strcmp(json_string_value(schema), RF_SCHEMA) &&
	    !strncmp(json_string_value(schema), "iotrial.results/", 16)) {
		diag_add(
		    c->d, &loc,
		    "written by another version of iotrial (schema \"%.100s\"); this one reads \"%s\"",
		    json_string_value(schema), RF_SCHEMA);
		return -EINVAL;
	}
	if (strcmp(json_string_value(schema), RF_SCHEMA)) {
		diag_add(c->d, &loc,
			 "not an iotrial results file (schema \"%.100s\", expected \"%s\")",
			 json_string_value(schema), RF_SCHEMA);
		return -EINVAL;
	}
	rf_read(c, root, "", &rf_results, c->r, NULL);
	if (c->nomem) {
		diag_add(c->d, &loc, "out of memory");
		return -ENOMEM;
	}
	return c->nerr ? -EINVAL : 0;
}

static int rj_finish(struct rj *c, json_t *root, const json_error_t *err, bool empty)
{
	struct src_loc loc = {c->name, 0, 0};
	int ret;

	if (empty) {
		/* What a run killed before it wrote anything leaves; say so plainly. */
		diag_add(c->d, &loc, "empty file, not an iotrial results file");
		json_decref(root);
		return -EINVAL;
	}
	if (!root) {
		/* jansson counts columns from 1 but says 0 for an empty file. */
		loc.line = err->line > 0 ? (unsigned)err->line : 1;
		loc.col = err->column > 0 ? (unsigned)err->column : 1;
		diag_add(c->d, &loc, "%s", err->text);
		return -EINVAL;
	}
	ret = rj_from_json(c, root);
	json_decref(root);
	if (ret)
		results_release(c->r);
	return ret;
}

/* rj_load from the stream `f`, read whole and closed. */
static int load_stream(const char *path, FILE *f, struct results *r, struct diag *d)
{
	struct rj c = {path, d, r, 0, false};
	struct src_loc loc = {path, 0, 0};
	json_error_t err;
	json_t *root;
	bool empty;
	int ret;

	errno = 0;
	root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
	ret = errno ? -errno : -EIO; /* the read's own errno: EISDIR, EIO, ... */
	empty = ftell(f) == 0;
	if (ferror(f)) {
		diag_add(d, &loc, "cannot read: %s", strerror(-ret));
		json_decref(root);
		fclose(f);
		return ret;
	}
	fclose(f);
	return rj_finish(&c, root, &err, empty);
}

int rj_load(const char *path, struct results *r, struct diag *d)
{
	struct src_loc loc = {path, 0, 0};
	FILE *f;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!(f = fopen(path, "r"))) {
		ret = -errno;
		diag_add(d, &loc, "cannot open: %s", strerror(-ret));
		return ret;
	}
	return load_stream(path, f, r, d);
}

int rj_load_fd(const char *path, int fd, struct results *r, struct diag *d)
{
	struct src_loc loc = {path, 0, 0};
	int own = dup(fd);
	FILE *f = own < 0 ? NULL : fdopen(own, "r");
	int ret;

	memset(r, 0, sizeof(*r));
	if (!f) {
		ret = -errno;
		if (own >= 0)
			close(own);
		diag_add(d, &loc, "cannot open: %s", strerror(-ret));
		return ret;
	}
	return load_stream(path, f, r, d);
}

int rj_load_string(const char *name, const char *text, size_t len, struct results *r,
		   struct diag *d)
{
	struct rj c = {name, d, r, 0, false};
	json_error_t err;

	memset(r, 0, sizeof(*r));
	return rj_finish(&c, json_loadb(text, len, JSON_REJECT_DUPLICATES, &err), &err, len == 0);
}
