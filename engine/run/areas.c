/* Shared areas of trials, kept between them (see areas.h). Mapped, not malloc'ed, even for
 * threads: a block of about 100 KB freed after each trial was not reused by the next
 * trial's aligned allocation (the small allocations of the results made meanwhile split
 * it), so a run's memory grew by one block a trial (1.85 GB for 21,000 trials). A kept
 * mapping is reused only whole, for the same size, and at most AREAS_KEPT are kept: a
 * run's memory grows by at most AREAS_KEPT of them (64 x 296 KiB at the most), not by
 * one a trial. */
#include "engine/run/areas.h"

#include <string.h>
#include <sys/mman.h>

void *areas_get(struct areas *a, size_t size, bool shared)
{
	void *p;

	for (size_t i = 0; i < AREAS_KEPT; i++) {
		struct area *k = &a->kept[i];
		if (k->p && k->size == size && k->shared == shared) {
			p = k->p;
			k->p = NULL;
			return memset(p, 0, size);
		}
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
	/* Written once here, so that no page fault falls in a worker's measured time. */
	return p == MAP_FAILED ? NULL : memset(p, 0, size);
}

void areas_put(struct areas *a, void *p, size_t size, bool shared)
{
	struct area *oldest = &a->kept[0];

	if (!p)
		return;
	for (size_t i = 0; i < AREAS_KEPT; i++) {
		struct area *k = &a->kept[i];
		if (!k->p) {
			oldest = k;
			break;
		}
		if (k->put < oldest->put)
			oldest = k;
	}
	/* Full: the one given back longest ago goes, not this one. What the trials ask for
	 * now wins over what an earlier trial asked for: a trial of 64 workers would else
	 * leave no place for the stop flags of the smaller trials after it, nor for areas of
	 * the other kind (worker_mode) or size (mixed), each mapped and unmapped again per
	 * trial, while the kept ones stayed unused until the run's end. */
	if (oldest->p)
		munmap(oldest->p, oldest->size);
	*oldest = (struct area){p, size, shared, ++a->puts};
}

void areas_release(struct areas *a)
{
	for (size_t i = 0; i < AREAS_KEPT; i++) {
		if (a->kept[i].p)
			munmap(a->kept[i].p, a->kept[i].size);
		a->kept[i].p = NULL;
	}
}
