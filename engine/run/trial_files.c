/* A trial's files (see trial_files.h): what its workers read laid out, a copy's
 * destinations made and removed through the run's ledger, the page cache dropped and looked
 * at. */
#include "engine/run/trial_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/run/files.h"

/* A copy's destinations, new every trial: made here (O_EXCL, through the ledger) before
 * the workers open them. One left from an earlier trial (kept as the last, before a
 * precision target added trials) goes first. */
static int make_destinations(struct trial_env *e, struct inst_run *r)
{
	const struct job_spec *j = &r->in->job;
	int ret = 0;

	for (uint32_t w = 0; w < r->n; w++)
		if (ledger_find(e->ledger, r->slots[w].data_path))
			ledger_remove(e->ledger, r->slots[w].data_path, NULL);
	for (uint32_t w = 0; w < r->n && ret == 0; w++) {
		const char *path = r->slots[w].data_path;
		char *msg = NULL;
		if (ledger_find(e->ledger, path))
			continue; /* workers sharing one destination (file_per_thread: false) */
		if (j->workload == WL_COPYTREE) {
			ledger_mktree(e->ledger, path, 0755, j->keep_files, &ret, &msg);
		} else {
			int fd =
			    ledger_create(e->ledger, path, O_WRONLY, 0644, j->keep_files, &msg);
			ret = fd < 0 ? fd : close(fd);
		}
		if (ret < 0)
			trial_error(r->tr, "%s", msg ? msg : strerror(-ret));
		free(msg);
	}
	return ret;
}

/* Lay out what this instance's workers read, make a copy's destinations, drop caches, note
 * what is cached. */
int trial_prepare(struct trial_env *e, struct inst_run *r)
{
	struct instance *in = r->in;
	const struct job_spec *j = &in->job;
	bool copy = j->workload == WL_COPY || j->workload == WL_COPYTREE;
	bool writes = spec_workload_writes(j->workload);
	struct plan_file *f = plan_file_root(copy ? &in->src : &in->data);
	int ret = 0;

	if (in->be->flags & BE_F_NOIO || j->workload == WL_COMMAND)
		return 0;
	/* Each worker's file, unless this run made it (an earlier trial, or an instance sharing
	 * it); a file of that name that iotrial did not make fails the trial. */
	for (uint32_t w = 0; w < files_count(j) && f->create && ret == 0; w++) {
		struct plan_file one = *f;
		char *msg = NULL, *path = files_worker_path(f->path, j, w);
		one.path = path;
		one.owner = NULL;
		if (path && ledger_find(e->ledger, path)) {
			free(path);
			continue;
		}
		ret = one.path ? files_layout(e->ledger, &one, f->size ? f->size : j->file_size,
					      j->verify, trial_layout_seed(e->p, f->path),
					      j->tree_files, j->keep_files, &msg)
			       : -ENOMEM;
		if (ret < 0) {
			trial_error(r->tr, "%s", msg ? msg : strerror(-ret));
			/* A file half laid out is no file to measure: the next trial lays it
			 * out again (or fails for the same reason, named), never reads it. */
			if (one.path && ledger_find(e->ledger, one.path))
				ledger_remove(e->ledger, one.path, NULL);
		}
		free(msg);
		free(path);
	}
	if (ret < 0)
		return ret;
	/* preallocate: false: a new file each trial, as a program that creates its output. */
	if ((copy || (r->in->data.create && r->in->data.layout == LAYOUT_NONE)) &&
	    (ret = make_destinations(e, r)) < 0)
		return ret;
	for (uint32_t w = 0; w < r->n; w++) {
		const char *path = copy ? r->slots[w].src_path : r->slots[w].data_path;
		if (j->invalidate && j->workload != WL_COPYTREE)
			files_drop_cache(e->ledger, path);
		if ((!writes || copy) && w == 0 && j->workload != WL_COPYTREE)
			r->tr->cached = files_cached_fraction(e->ledger, path, j->file_size);
	}
	if (!writes && r->tr->cached > 0.5)
		r->ir->reads_cached = true;
	return 0;
}

/* What the trial left in the page cache: the file `page_cache` looked at before it (for a
 * write, the data file), looked at again once every worker has ended and before anything
 * reads it back. A buffered read that went over its file more than once (worker 0 moved
 * more than file_size) and left it mostly cached read the later passes from memory: the
 * result then says so (reads_cached), as when the file was cached to begin with. */
void trial_note_cached_after(struct inst_run *r)
{
	const struct job_spec *j = &r->in->job;
	const struct slot *s = r->slots;
	bool copy = j->workload == WL_COPY;

	if (!r->ready || r->n == 0 || !r->tr || r->in->be->flags & BE_F_NOIO ||
	    j->workload == WL_COPYTREE || j->workload == WL_COMMAND)
		return;
	r->tr->cached_after =
	    files_cached_fraction(r->ledger, copy ? s->src_path : s->data_path, j->file_size);
	if (!spec_workload_writes(j->workload) && !j->direct && r->tr->cached_after > 0.5 &&
	    s->sh->out.bytes > j->file_size)
		r->ir->reads_cached = true;
}

/* A copy makes new files every trial: remove them (the last ones stay when files are kept),
 * each only while it is the one this trial made. Something else in its place, or inside a
 * copied tree, is left alone and fails the trial, named. */
void trial_remove_destinations(struct trial_env *e, const struct plan_unit *u, struct inst_run *r)
{
	const struct job_spec *j = &r->in->job;
	bool last = !r->background && r->tr && r->tr->index + 1 >= u->warmup + u->runs;

	if (!r->slots || (j->workload != WL_COPY && j->workload != WL_COPYTREE) ||
	    (j->keep_files && last))
		return;
	for (uint32_t w = 0; w < r->n; w++) {
		char *msg = NULL;
		if (!r->slots[w].data_path ||
		    ledger_remove(e->ledger, r->slots[w].data_path, &msg) == 0)
			continue;
		/* A trial that failed already shows its first error only: say this too. */
		if (!r->tr || r->tr->error)
			diag_add(e->d, NULL, "job '%s': %s", r->in->name,
				 msg ? msg : "cannot remove the copy");
		if (r->tr)
			trial_error(r->tr, "%s", msg ? msg : "cannot remove the copy");
		free(msg);
	}
}
