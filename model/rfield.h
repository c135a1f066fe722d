/* The field table of results.json: one row per key, saying where its value lives in struct
 * results, its type, whether a reader requires it, and when it is written. The writer
 * (rf_write.c, for reporters/json.c) and the reader (rf_read.c, for results_json.c) both walk
 * these tables, so a key is added once and both directions follow. The rows themselves are in
 * results_fields.c, in the order the writer puts the keys; docs/results.md describes them. */
#ifndef IOTRIAL_RFIELD_H
#define IOTRIAL_RFIELD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct rj;

enum rf_type {
	RF_U32,	     /* uint32_t, an integer */
	RF_U64,	     /* uint64_t, a count, size or time: an integer from 0 to 2^63-1 */
	RF_SEED,     /* uint64_t, any 64 bits (written as json_int_t: 2^63 and above come back) */
	RF_REAL,     /* double, a number; NAN is null */
	RF_FRACTION, /* double strictly between 0 and 1 (a confidence, an error); NAN is null */
	RF_BOOL,     /* bool */
	RF_STR,	     /* char *, owned by the results; NULL is null */
	RF_NAME,     /* const char *: a metric's, a test's or a stop reason's name (rj_own) */
	RF_FIXED,    /* char[size], a string that must fit */
	RF_ENUM,     /* an enum (int-sized), as one of `names` */
	RF_TRISTATE, /* int: 1 true, 0 false, -1 null (unknown) */
	RF_CONST,    /* no value: the string `text`, always; a reader checks it */
	RF_OBJ,	     /* a nested object over the struct at `off` (0: the same struct), `sub` */
	RF_ARR,	     /* an array of structs: pointer at `off`, count at `count_off`, `sub` each */
	RF_METRICS,  /* one object per row of the metric table, each `sub` over the stat_summary
		      * at `off` + its index (model/metrics.h): a new metric needs no row here */
	RF_CUSTOM,   /* written by `put`, read by `get` */
};

enum rf_flag {
	RF_REQ = 1 << 0,	 /* a reader requires it (in an object that is there), see since */
	RF_NULLABLE = 1 << 1,	 /* an integer or a string may be null: read as 0 or NULL */
	RF_ZERO_NULL = 1 << 2,	 /* an integer 0 means unknown: written as null, null reads as 0 */
	RF_WRITE_ONLY = 1 << 3,	 /* the reader skips it: it repeats or derives another value */
	RF_NULL_UNLESS = 1 << 4, /* when `when` says no, written as null instead of left out */
	RF_MARK = 1 << 5,	 /* the reader sets the bool at `mark_off` when the key is there */
};

struct rf_table;

struct rfield {
	const char *key;
	enum rf_type type;
	unsigned flags; /* enum rf_flag */
	size_t off;	/* of the value from the start of the struct the table describes */
	const struct rf_table *sub; /* RF_OBJ, RF_ARR, RF_METRICS */
	size_t count_off;	    /* RF_ARR: the entry count, a uint32_t or a size_t ... */
	size_t count_size;	    /* ... of this many bytes */
	size_t size;		    /* RF_FIXED: the buffer's; RF_ARR: an entry's */
	const char *const *names;   /* RF_ENUM: by value, NULL-terminated (model/names.h) */
	const char *text;	    /* RF_CONST: the value */
	size_t mark_off;	    /* RF_MARK: a bool of the same struct */
	/* Written only when this says so (NULL: always); `owner` is the struct holding the
	 * array the current entry is in (NULL at the top). */
	bool (*when)(const void *base, const void *owner);
	/* Writes the value instead of its type's writer; a new reference, NULL: out of memory. */
	json_t *(*put)(const void *base, const void *owner, const struct rfield *f);
	/* RF_CUSTOM: reads member `f->key` of object `o` (at JSON path `where`) into `base`. */
	void (*get)(struct rj *c, json_t *o, const char *where, void *base, const struct rfield *f);
	/* The iotrial version that first wrote the key (NULL: every version did): a file whose
	 * tool.version is older may lack it even when RF_REQ. */
	const char *since;
};

struct rf_table {
	const struct rfield *f;
	size_t n;
	/* Writer: is this entry of an array written at all? (NULL: yes). */
	bool (*include)(const void *base);
	/* Reader: run once every field of an object is read (NULL: nothing). */
	void (*after)(struct rj *c, void *base);
};

/* The whole file: the table of the top-level object over struct results. */
extern const struct rf_table rf_results;

/* Parts of the file, for a writer of one object at a time (reporters/ndjson.c): a trial
 * (base: a struct trial_result, owner: its struct instance_result), an instance's summary
 * (base: the struct instance_result, owner: the struct results), a comparison (base: the
 * struct comparison, owner: the struct results). */
extern const struct rf_table *const rf_trial;
extern const struct rf_table *const rf_summary;
extern const struct rf_table *const rf_comparison;

/* The object `t` describes, over `base` (held by `owner`), exactly as results.json has it: a
 * new reference, or NULL when out of memory. */
json_t *rf_write_object(const struct rf_table *t, const void *base, const void *owner);

/* The schema this iotrial writes and reads. */
#define RF_SCHEMA "iotrial.results/1"

struct results;

/* Where rf_write_stream puts results.json, a piece at a time. Each function returns 0 or
 * -errno (which ends the walk, returned); each json_t given is a new reference the sink owns,
 * or NULL when making it ran out of memory (the sink returns -ENOMEM). */
struct rf_sink {
	/* A member of the top-level object, in the file's order. */
	int (*member)(void *ctx, const char *key, json_t *v);
	/* A top-level member that is an array of objects: opened, its entries one by one,
	 * closed. */
	int (*open)(void *ctx, const char *key);
	int (*entry)(void *ctx, json_t *v);
	int (*close)(void *ctx);
};

/* results.json (rf_write.c): its top-level members in order, each array of objects (jobs,
 * comparisons) an entry at a time, so a writer that dumps each piece as it comes holds one
 * job's tree, never the whole file's. Nothing is dropped silently: a jansson call that fails
 * gives the sink NULL, and the sink's -ENOMEM ends the walk. */
int rf_write_stream(const struct results *r, const struct rf_sink *s, void *ctx);

/* A number, or null for NAN and the infinities (rf_write.c). NULL: out of memory. */
json_t *rf_json_num(double v);

/* A string, or null for NULL (rf_write.c). JSON text is UTF-8, and jansson refuses any
 * other string: a byte that is not UTF-8 (a file name in another encoding, from a path, an
 * environment variable or --set) becomes U+FFFD, instead of the whole file failing.
 * NULL: out of memory. */
json_t *rf_json_str(const char *s);

/* Append `v` to array `a`, or set member `key` of object `o` to it; both take `v` (also
 * NULL, for an allocation that failed). Return 0 or -ENOMEM. */
int rf_append(json_t *a, json_t *v);
int rf_set(json_t *o, const char *key, json_t *v);

/* Read object `o` (JSON path `where`) into `base` by `t` (rf_read.c); problems go to the
 * reader's messages (model/rj.h). */
void rf_read(struct rj *c, json_t *o, const char *where, const struct rf_table *t, void *base,
	     const void *owner);

#endif
