/* What the rows of results_fields.c need beyond their types: when a key is written, and the
 * readers and writers of the few values no type describes (results_fields_custom.c). For the
 * field tables only. */
#ifndef IOTRIAL_RESULTS_FIELDS_H
#define IOTRIAL_RESULTS_FIELDS_H

#include <jansson.h>
#include <stdbool.h>

#include "model/rfield.h"

/* `when`: is the key written for this struct (and the one holding its array)? */
bool rf_owner_has_ranks(const void *worker, const void *trial);
bool rf_owner_stonewalls(const void *rank, const void *trial);
bool rf_trial_has_workers(const void *trial, const void *instance);
bool rf_trial_has_ranks(const void *trial, const void *instance);
bool rf_trial_has_sizes(const void *trial, const void *instance);
bool rf_trial_has_sync(const void *trial, const void *instance);
bool rf_trial_has_hpages(const void *trial, const void *instance);
bool rf_hpages_measured(const void *hpages, const void *instance);

bool rf_trial_stonewalls(const void *trial, const void *instance);
bool rf_trial_log_cut(const void *trial, const void *instance);
bool rf_trial_has_hist(const void *trial, const void *instance);
bool rf_instance_records(const void *instance, const void *results);
bool rf_rep_has_k(const void *rep, const void *results);
bool rf_rep_has_target(const void *rep, const void *results);
bool rf_results_has_table(const void *results, const void *owner);
bool rf_row_shows_metric(const void *row, const void *results);
bool rf_row_describes(const void *row, const void *results);

/* include: only trials that ran are written. */
bool rf_trial_ran(const void *trial);

/* `put`: values written other than by their type. */
json_t *rf_put_false(const void *base, const void *owner, const struct rfield *f);
json_t *rf_put_metric(const void *instance, const void *owner, const struct rfield *f);
json_t *rf_put_ranks(const void *results, const void *owner, const struct rfield *f);

/* RF_CUSTOM: params (typed values), matrix (names of params), overrides (strings), a report
 * row's values ({DEVICE: TEXT}), a series' points ([at_bytes, at_ns, value] each). */
json_t *rf_put_params(const void *instance, const void *owner, const struct rfield *f);
void rf_get_params(struct rj *c, json_t *o, const char *where, void *instance,
		   const struct rfield *f);
json_t *rf_put_matrix(const void *instance, const void *owner, const struct rfield *f);
void rf_get_matrix(struct rj *c, json_t *o, const char *where, void *instance,
		   const struct rfield *f);
json_t *rf_put_overrides(const void *results, const void *owner, const struct rfield *f);
void rf_get_overrides(struct rj *c, json_t *o, const char *where, void *results,
		      const struct rfield *f);
json_t *rf_put_facts(const void *row, const void *owner, const struct rfield *f);
void rf_get_facts(struct rj *c, json_t *o, const char *where, void *row, const struct rfield *f);
json_t *rf_put_points(const void *series, const void *owner, const struct rfield *f);
/* log_histogram: a trial's latency buckets with their scheme (rf_hist.c). */
json_t *rf_put_hist(const void *trial, const void *owner, const struct rfield *f);
void rf_get_hist(struct rj *c, json_t *o, const char *where, void *trial, const struct rfield *f);
/* trial_hists: every kind of each trial's histogram, written in a checkpoint (the results
 * are not complete) and with log_histogram (rf_hist.c). */
bool rf_instance_keeps_hists(const void *instance, const void *results);
json_t *rf_put_trial_hists(const void *instance, const void *owner, const struct rfield *f);
void rf_get_trial_hists(struct rj *c, json_t *o, const char *where, void *instance,
			const struct rfield *f);
void rf_get_points(struct rj *c, json_t *o, const char *where, void *series,
		   const struct rfield *f);

/* The summary's pooled latency (rf_pct.c): the percentile list, and an object per kind at
 * the row's offset in struct instance_result, keyed by that list. */
json_t *rf_put_pcts(const void *instance, const void *owner, const struct rfield *f);
void rf_get_pcts(struct rj *c, json_t *o, const char *where, void *instance,
		 const struct rfield *f);
json_t *rf_put_pooled(const void *instance, const void *owner, const struct rfield *f);
void rf_get_pooled(struct rj *c, json_t *o, const char *where, void *instance,
		   const struct rfield *f);
bool rf_instance_splits(const void *instance, const void *results);
bool rf_trial_splits(const void *trial, const void *instance);

/* `after`: what a reader derives once an object is read. */
void rf_trial_read(struct rj *c, void *trial);
void rf_summary_read(struct rj *c, void *instance);
void rf_results_read(struct rj *c, void *results);

#endif
