/* The memory this process may use (see memlimit.h). A container or a systemd unit with
 * MemoryMax= runs on a machine with far more memory than it may take: a plan checked against
 * the machine's would be killed by the OOM killer halfway instead of refused at the start. */
#include "lib/memlimit.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int memlimit_parse_max(const char *text, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!strcmp(text, "max\n") || !strcmp(text, "max")) {
		*out = 0;
		return 0;
	}
	if (*text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || (strcmp(end, "\n") && *end))
		return -EINVAL;
	*out = v;
	return 0;
}

int memlimit_cgroup_path(const char *text, char *out, size_t len)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t n;
		if (strncmp(l, "0::", 3))
			continue;
		l += 3;
		n = strcspn(l, "\n");
		if (n + 1 > len)
			return -ENAMETOOLONG;
		memcpy(out, l, n);
		out[n] = '\0';
		return 0;
	}
	return -ENOENT;
}

/* A small file's text into buf (len bytes, NUL-terminated): 0, or -errno (-EFBIG: it did
 * not fit). */
static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	buf[0] = '\0';
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return n == len - 1 ? -EFBIG : 0;
}

/* The memory.max of cgroup `cg` under `root`: 0 when it has none ("max", or no such file:
 * the root cgroup). */
static uint64_t cgroup_max(const char *root, const char *cg)
{
	char file[PATH_MAX + 32], text[64];
	uint64_t v;

	if (snprintf(file, sizeof(file), "%s%s/memory.max", root, strcmp(cg, "/") ? cg : "") >=
	    (int)sizeof(file))
		return 0;
	if (read_small(file, text, sizeof(text)) < 0 || memlimit_parse_max(text, &v) < 0)
		return 0;
	return v;
}

uint64_t memlimit_cgroup(const char *proc_cgroup, const char *root)
{
	char text[4096], cg[PATH_MAX];
	uint64_t least = 0, v;
	char *cut;

	if (read_small(proc_cgroup, text, sizeof(text)) < 0 ||
	    memlimit_cgroup_path(text, cg, sizeof(cg)) < 0 || cg[0] != '/')
		return 0;
	/* The cgroup itself, then each one above it up to the mount's root: any of them caps
	 * it. A container's namespace root (its "/") has a memory.max of its own. */
	for (;;) {
		if ((v = cgroup_max(root, cg)) && (!least || v < least))
			least = v;
		if (!strcmp(cg, "/"))
			break;
		cut = strrchr(cg, '/');
		cut[cut == cg] = '\0'; /* "/a" becomes "/", "/a/b" "/a" */
	}
	return least;
}

uint64_t memlimit_physical(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

uint64_t memlimit_least(uint64_t physical, uint64_t cgroup, int *is_cgroup)
{
	*is_cgroup = cgroup && (!physical || cgroup < physical);
	return *is_cgroup ? cgroup : physical;
}

uint64_t memlimit_usable(int *cgroup)
{
	return memlimit_least(memlimit_physical(),
			      memlimit_cgroup(MEMLIMIT_PROC_CGROUP, MEMLIMIT_CGROUP_ROOT), cgroup);
}
