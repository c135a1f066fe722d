/* results.json (schema "iotrial.results/1"): the results as the field tables of model/rfield.h
 * write them, dumped with jansson. Every key of the contract in DESIGN.md is present; what
 * could not be measured is null, never 0.
 *
 * The file is written a piece at a time (rf_write_stream): each top-level member, and each
 * job of the jobs array, is made, dumped and freed, so the memory it takes is one job's, not
 * the whole run's. The bytes are those json_dumpf would write for the whole tree with the
 * same flags: a piece is dumped at depth 0 and indented to its depth after each newline
 * (JSON text has no raw newline inside a string, so each one is jansson's own). */
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <string.h>

#include "model/rfield.h"
#include "reporters/reporter.h"

#define DUMP_FLAGS                                                                                 \
	(JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY)

struct json_out {
	FILE *out;
	unsigned depth;	   /* of the piece being dumped: 1 a member, 2 an array's entry */
	bool first_member; /* nothing of the top-level object written yet */
	bool first_entry;  /* nothing of the open array written yet */
};

static int put(struct json_out *o, const char *s, size_t len)
{
	return fwrite(s, 1, len, o->out) == len ? 0 : -EIO;
}

static int indent(struct json_out *o, unsigned depth)
{
	static const char spaces[] = "        ";

	if (put(o, "\n", 1) < 0)
		return -EIO;
	for (unsigned i = 0; i < depth; i++)
		if (put(o, spaces, 2) < 0)
			return -EIO;
	return 0;
}

/* jansson's output callback: the piece, a newline indented to the piece's depth. */
static int dump_part(const char *buf, size_t size, void *data)
{
	struct json_out *o = data;

	while (size) {
		const char *nl = memchr(buf, '\n', size);
		size_t len = nl ? (size_t)(nl - buf) : size;
		if (put(o, buf, len) < 0 || (nl && indent(o, o->depth) < 0))
			return -1;
		len += nl != NULL;
		buf += len;
		size -= len;
	}
	return 0;
}

/* Dumps v (a reference this takes) at o->depth. */
static int dump(struct json_out *o, json_t *v)
{
	int ret;

	if (!v)
		return -ENOMEM;
	ret = json_dump_callback(v, dump_part, o, DUMP_FLAGS);
	json_decref(v);
	return ret < 0 ? -EIO : 0;
}

/* `"key": ` after the separator from the member before it. */
static int key(struct json_out *o, const char *k)
{
	int ret = put(o, o->first_member ? "" : ",", !o->first_member);

	o->first_member = false;
	if (ret < 0 || indent(o, 1) < 0)
		return -EIO;
	o->depth = 1;
	if ((ret = dump(o, json_string(k))) < 0)
		return ret;
	return put(o, ": ", 2);
}

static int member(void *ctx, const char *k, json_t *v)
{
	struct json_out *o = ctx;
	int ret = key(o, k);

	if (ret < 0) {
		json_decref(v);
		return ret;
	}
	return dump(o, v);
}

static int open_array(void *ctx, const char *k)
{
	struct json_out *o = ctx;
	int ret = key(o, k);

	o->first_entry = true;
	return ret < 0 ? ret : put(o, "[", 1);
}

static int entry(void *ctx, json_t *v)
{
	struct json_out *o = ctx;
	int ret = put(o, o->first_entry ? "" : ",", !o->first_entry);

	o->first_entry = false;
	if (ret < 0 || indent(o, 2) < 0) {
		json_decref(v);
		return -EIO;
	}
	o->depth = 2;
	return dump(o, v);
}

static int close_array(void *ctx)
{
	struct json_out *o = ctx;

	if (!o->first_entry && indent(o, 1) < 0)
		return -EIO;
	return put(o, "]", 1);
}

static const struct rf_sink json_sink = {
    .member = member,
    .open = open_array,
    .entry = entry,
    .close = close_array,
};

static int json_report(const struct results *r, FILE *out)
{
	struct json_out o = {.out = out, .first_member = true};
	int ret;

	if (put(&o, "{", 1) < 0)
		return -EIO;
	if ((ret = rf_write_stream(r, &json_sink, &o)) < 0)
		return ret;
	if ((!o.first_member && indent(&o, 0) < 0) || put(&o, "}\n", 2) < 0)
		return -EIO;
	return 0;
}

const struct rep_ops rep_json = {
    .name = "json",
    .file = "results.json",
    .write = json_report,
};
