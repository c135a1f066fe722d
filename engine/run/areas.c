/* Shared areas of trials, kept between them (see areas.h). Mapped, not malloc'ed, even for
 * threads: a block of about 100 KB freed after each trial was not reused by the next
 * trial's aligned allocation (the small allocations of the results made meanwhile split
 * it), so a run's memory grew by one block a trial (1.85 GB for 21,000 trials). A kept
 * mapping is reused only whole, for the same size, and at most AREAS_KEPT are kept: a
 * run's memory is that of its largest trial. */
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
	if (!p)
		return;
	for (size_t i = 0; i < AREAS_KEPT; i++) {
		struct area *k = &a->kept[i];
		if (!k->p) {
			*k = (struct area){p, size, shared};
			return;
		}
	}
	munmap(p, size);
}

void areas_release(struct areas *a)
{
	for (size_t i = 0; i < AREAS_KEPT; i++) {
		if (a->kept[i].p)
			munmap(a->kept[i].p, a->kept[i].size);
		a->kept[i].p = NULL;
	}
}
