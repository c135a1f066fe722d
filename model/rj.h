/* Internals of the results.json reader (results_json.c, rf_read.c and the custom readers of
 * results_fields_custom.c): its state, and typed getters that check each member, name it by
 * its JSON path in a message when it is missing or of the wrong type, and give NAN, 0 or NULL
 * instead (rj_get.c). Not for use elsewhere. */
#ifndef IOTRIAL_RJ_H
#define IOTRIAL_RJ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "model/results.h"

/* Most entries an array may have (jobs, trials, targets, comparisons): a bound well above
 * any real run that keeps a crafted file from asking for absurd allocations. */
#define RJ_MAX_ENTRIES (1u << 24)
#define MAX_ERRORS     20
#define PATH_LEN       256

struct rj {
	const char *name; /* the file, for messages */
	struct diag *d;
	struct results *r;
	unsigned nerr;
	bool nomem;
};

void rj_error(struct rj *c, const char *where, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool rj_stop(const struct rj *c);
void rj_path_cat(char *buf, const char *where, const char *key, const char *suffix);
void rj_path_key(char *buf, const char *where, const char *key);
void rj_path_index(char *buf, const char *where, const char *key, size_t i);
json_t *rj_member(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		  const char *what);
json_t *rj_get_obj(struct rj *c, json_t *o, const char *where, const char *key, bool req);
json_t *rj_get_arr(struct rj *c, json_t *o, const char *where, const char *key, bool req);
void rj_get_real(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		 double *out);
void rj_get_fraction(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		     double *out);
bool rj_get_int(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		bool nullable, json_int_t lo, json_int_t hi, json_int_t *out);
void rj_get_u64(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		bool nullable, uint64_t *out);
void rj_get_bits64(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		   uint64_t *out);
void rj_get_u32(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		bool nullable, uint32_t *out);
void rj_get_bool(struct rj *c, json_t *o, const char *where, const char *key, bool req, bool *out);
const char *rj_get_str(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		       bool nullable);
char *rj_dup(struct rj *c, const char *s);
const char *rj_own(struct rj *c, const char *s);
void rj_get_fixed(struct rj *c, json_t *o, const char *where, const char *key, char *buf,
		  size_t size);
void *rj_grow(struct rj *c, void *arr, size_t *cap, size_t n, size_t size);

#endif
