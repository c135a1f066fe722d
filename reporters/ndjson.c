/* The event stream (schema "iotrial.events/1"): one JSON object a line, flushed line by line,
 * for each event of a run (model/events.h) as it happens; or, from a saved results.json, the
 * events it implies. A trial, a summary and a comparison are the very objects results.json
 * holds (model/rfield.h), so a reader of both sees the same figures. docs/ndjson.md. */
#include <errno.h>
#include <jansson.h>
#include <math.h>

#include "model/rfield.h"
#include "reporters/reporter.h"

#define EV_SCHEMA "iotrial.events/1"

static const char *const kind_names[] = {
    [RUN_EV_RUN_START] = "run_start", [RUN_EV_TRIAL_START] = "trial_start",
    [RUN_EV_TRIAL_END] = "trial_end", [RUN_EV_INTERVAL] = "interval",
    [RUN_EV_SUMMARY] = "summary",     [RUN_EV_COMPARISON] = "comparison",
    [RUN_EV_RUN_END] = "run_end",
};

/* set(o, key, value) for a run of keys: the first failure (out of memory) sticks in *err. */
static void put(json_t *o, const char *key, json_t *v, int *err)
{
	if (rf_set(o, key, v) < 0)
		*err = -ENOMEM;
}

static json_t *uint_json(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *str_json(const char *s)
{
	return rf_json_str(s);
}

/* The jobs of the run, as run_start lists them. */
static json_t *jobs_json(const struct results *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		json_t *o = json_pack("{s:o, s:o, s:s?, s:s?, s:b}", "name", str_json(ir->name),
				      "job", str_json(ir->job), "backend", ir->backend, "workload",
				      ir->workload, "background", ir->background);
		if (rf_append(a, o) < 0)
			return NULL;
	}
	return a;
}

static void run_start(json_t *o, const struct run_event *ev, int *err)
{
	const struct results *r = ev->r;

	put(o, "results_schema", json_string(RF_SCHEMA), err);
	put(o, "tool", json_pack("{s:s?, s:s?}", "name", r->tool_name, "version", r->tool_version),
	    err);
	put(o, "experiment", str_json(r->experiment), err);
	put(o, "description", str_json(r->description), err);
	put(o, "job_file",
	    json_pack("{s:o, s:s}", "path", str_json(r->job_path), "sha256", r->job_sha256), err);
	put(o, "started_at", json_string(r->started_at), err);
	put(o, "seed", uint_json(r->seed), err);
	put(o, "trials_planned", uint_json(ev->ntrials), err);
	put(o, "jobs", jobs_json(r), err);
}

/* The instance and trial an event is about. */
static void trial_keys(json_t *o, const struct run_event *ev, int *err)
{
	put(o, "instance", str_json(ev->ir->name), err);
	put(o, "job", str_json(ev->ir->job), err);
	put(o, "trial", uint_json(ev->index), err);
	put(o, "warmup", json_boolean(ev->warmup), err);
}

static void trial_event(json_t *o, const struct run_event *ev, int *err)
{
	trial_keys(o, ev, err);
	if (ev->kind == RUN_EV_INTERVAL)
		return;
	put(o, "seq", uint_json(ev->k), err);
	put(o, "trials_planned", uint_json(ev->ntrials), err);
	if (ev->kind == RUN_EV_TRIAL_END && ev->tr)
		put(o, "result", rf_write_object(rf_trial, ev->tr, ev->ir), err);
}

static void interval(json_t *o, const struct run_event *ev, int *err)
{
	const struct run_interval *iv = ev->ivl;
	double secs = (double)(iv->end_ns - iv->start_ns) / 1e9;

	trial_keys(o, ev, err);
	put(o, "worker", uint_json(iv->worker), err);
	put(o, "start_ns", uint_json(iv->start_ns), err);
	put(o, "end_ns", uint_json(iv->end_ns), err);
	put(o, "bytes", uint_json(iv->bytes), err);
	put(o, "ios", uint_json(iv->ios), err);
	put(o, "bw_bytes", rf_json_num(secs > 0 ? (double)iv->bytes / secs : NAN), err);
	put(o, "iops", rf_json_num(secs > 0 ? (double)iv->ios / secs : NAN), err);
	put(o, "lat_mean_ns", rf_json_num(iv->lat_mean_ns), err);
}

/* The trials the outlier policy dropped: a trial_end said kept before the policy ran. */
static json_t *dropped_json(const struct instance_result *ir)
{
	json_t *a = json_array();

	for (size_t t = 0; a && t < ir->ntrials; t++)
		if (ir->trials[t].dropped && rf_append(a, uint_json(ir->trials[t].index)) < 0)
			return NULL;
	return a;
}

static void summary(json_t *o, const struct run_event *ev, int *err)
{
	put(o, "instance", str_json(ev->ir->name), err);
	put(o, "job", str_json(ev->ir->job), err);
	put(o, "background", json_boolean(ev->ir->background), err);
	put(o, "dropped", dropped_json(ev->ir), err);
	put(o, "summary", rf_write_object(rf_summary, ev->ir, ev->r), err);
}

static void run_end(json_t *o, const struct run_event *ev, int *err)
{
	put(o, "complete", json_boolean(ev->r->complete), err);
	put(o, "status",
	    json_string(ev->status == 0	       ? "ok"
			: ev->status == -EINTR ? "interrupted"
					       : "failed"),
	    err);
	put(o, "finished_at", json_string(ev->r->finished_at), err);
}

/* Event `ev` as one object: the schema, the kind and the clock first, then its own keys. */
static json_t *event_json(const struct run_event *ev)
{
	json_t *o = json_object();
	int err = 0;

	put(o, "schema", json_string(EV_SCHEMA), &err);
	put(o, "event", json_string(kind_names[ev->kind]), &err);
	put(o, "elapsed_ns", uint_json(ev->elapsed_ns), &err);
	switch (ev->kind) {
	case RUN_EV_RUN_START:
		run_start(o, ev, &err);
		break;
	case RUN_EV_TRIAL_START:
	case RUN_EV_TRIAL_END:
		trial_event(o, ev, &err);
		break;
	case RUN_EV_INTERVAL:
		interval(o, ev, &err);
		break;
	case RUN_EV_SUMMARY:
		summary(o, ev, &err);
		break;
	case RUN_EV_COMPARISON:
		put(o, "comparison", rf_write_object(rf_comparison, ev->cmp, ev->r), &err);
		break;
	case RUN_EV_RUN_END:
		run_end(o, ev, &err);
		break;
	}
	if (err < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int ndjson_event(const struct run_event *ev, FILE *out)
{
	json_t *o = event_json(ev);
	int ret;

	if (!o)
		return -ENOMEM;
	/* Compact, one line: JSON_COMPACT never writes a newline inside a value. */
	ret = json_dumpf(o, out, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(o);
	if (ret < 0 || fputc('\n', out) == EOF || fflush(out) == EOF)
		return -EIO;
	return 0;
}

/* A saved run's events: the start, each trial that ran (its end; in the instances' order,
 * which is not always the order they ran in), the summaries, the comparisons, the end. No
 * trial_start or interval events: results.json does not keep them. */
static int ndjson_report(const struct results *r, FILE *out)
{
	size_t seq = 0, ran = 0;
	int ret;

	for (size_t i = 0; i < r->ninst; i++)
		for (size_t t = 0; !r->inst[i].background && t < r->inst[i].ntrials; t++)
			ran += r->inst[i].trials[t].ran;
	ret = ndjson_event(&(struct run_event){.kind = RUN_EV_RUN_START, .r = r, .ntrials = ran},
			   out);
	for (size_t i = 0; ret == 0 && i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		for (size_t t = 0; ret == 0 && !ir->background && t < ir->ntrials; t++) {
			const struct trial_result *tr = &ir->trials[t];
			struct run_event ev = {.kind = RUN_EV_TRIAL_END,
					       .r = r,
					       .ir = ir,
					       .tr = tr,
					       .index = tr->index,
					       .warmup = tr->warmup,
					       .k = seq,
					       .ntrials = ran,
					       .elapsed_ns = tr->end_ns};
			if (tr->ran) {
				ret = ndjson_event(&ev, out);
				seq++;
			}
		}
	}
	for (size_t i = 0; ret == 0 && i < r->ninst; i++)
		ret = ndjson_event(
		    &(struct run_event){.kind = RUN_EV_SUMMARY, .r = r, .ir = &r->inst[i]}, out);
	for (size_t i = 0; ret == 0 && i < r->ncmp; i++)
		ret = ndjson_event(
		    &(struct run_event){.kind = RUN_EV_COMPARISON, .r = r, .cmp = &r->cmp[i]}, out);
	if (ret == 0)
		ret = ndjson_event(&(struct run_event){.kind = RUN_EV_RUN_END,
						       .r = r,
						       .status = r->complete ? 0 : -EINTR},
				   out);
	return ret;
}

const struct rep_ops rep_ndjson = {
    .name = "ndjson",
    .file = "events.ndjson",
    .on_request = true,
    .write = ndjson_report,
    .event = ndjson_event,
};
