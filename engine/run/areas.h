/* Memory a trial's coordinator shares with its workers (each worker's slot, the trial's
 * stop flags): anonymous mappings, MAP_SHARED where a worker is a process, zeroed. Given
 * back after a trial, they are kept for the next one, which mostly asks for the same
 * sizes: unmapping them after every trial flushed the TLB of every CPU the run's threads
 * had been on, an interrupt to each (a VM exit on a virtual machine), 0.7 ms of a short
 * trial's 0.9 (docs/performance.md, "Many short trials"). Not malloc'ed: see areas.c. */
#ifndef IOTRIAL_AREAS_H
#define IOTRIAL_AREAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Mappings kept at most: a trial of many workers gives the rest back to the system. */
#define AREAS_KEPT 64

struct areas {
	struct area {
		void *p; /* NULL: a free place */
		size_t size;
		bool shared;  /* MAP_SHARED: for worker processes */
		uint64_t put; /* when it was given back (areas.puts then): the oldest goes first */
	} kept[AREAS_KEPT];
	uint64_t puts; /* areas given back so far */
};

/* `size` zeroed bytes on pages of their own, shared with forked children when `shared`:
 * a kept mapping of that size and kind, else a new one. NULL when there is no memory. */
void *areas_get(struct areas *a, size_t size, bool shared);

/* Give back what areas_get returned (NULL: nothing), to be kept; when AREAS_KEPT are kept
 * already, the one given back longest ago is unmapped to make room. */
void areas_put(struct areas *a, void *p, size_t size, bool shared);

/* Unmap everything kept. */
void areas_release(struct areas *a);

#endif
