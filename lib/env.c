/* Capture of the run environment for results.json: uname, /proc/cpuinfo and sysinfo for the
 * machine; /proc/self/mountinfo, statvfs and /sys/dev/block for each storage target.
 * Everything here is best effort: a field the kernel does not expose stays unknown. */
#include "lib/env.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/fs.h>

/* The fields of one /proc/self/mountinfo line that a target needs, unescaped. */
struct env_mount {
	char *mnt;
	char *fstype;
	char *source;
};

/* Copy s[0..len) without surrounding whitespace into *dst; empty leaves *dst NULL. */
static int env_set_trimmed(char **dst, const char *s, size_t len)
{
	while (len > 0 && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) {
		s++;
		len--;
	}
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n' ||
			   s[len - 1] == '\r'))
		len--;
	free(*dst);
	*dst = NULL;
	if (len == 0)
		return 0;
	*dst = strndup(s, len);
	return *dst ? 0 : -ENOMEM;
}

/* First line of a small file (sysfs attribute) without its newline; length or -errno. */
static int env_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f)
		return -errno;
	if (fgets(buf, (int)size, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = (int)strlen(buf);
	} else {
		ret = ferror(f) ? -EIO : 0;
		buf[0] = '\0';
	}
	fclose(f);
	return ret;
}

/* Parse a non-negative decimal sysfs value; false when absent or malformed. */
static bool env_read_u32(const char *path, uint32_t *out)
{
	char buf[64], *end;
	unsigned long v;

	if (env_read_line(path, buf, sizeof(buf)) <= 0)
		return false;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || end == buf || *end != '\0' || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo; undo it in place. */
static void env_unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/*
 * Split one mountinfo line in place: "id parent maj:min root mnt opts [optional...] - fstype
 * source superopts". Pointers go into line. False for a line that does not parse.
 */
static bool env_parse_mountinfo(char *line, struct env_mount *m)
{
	char *save = NULL, *tok;
	int field = 0;

	line[strcspn(line, "\n")] = '\0';
	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 4)
			m->mnt = tok;
		else if (field >= 6 && strcmp(tok, "-") == 0)
			break;
	}
	if (!tok || field < 6)
		return false;
	m->fstype = strtok_r(NULL, " ", &save);
	m->source = strtok_r(NULL, " ", &save);
	if (!m->fstype || !m->source)
		return false;
	env_unescape(m->mnt);
	env_unescape(m->source);
	return true;
}

/* Does mount point mnt contain the absolute, resolved path real? */
static bool env_mnt_covers(const char *mnt, const char *real)
{
	size_t len = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return true;
	return strncmp(real, mnt, len) == 0 && (real[len] == '\0' || real[len] == '/');
}

/* Is the mount source a device node for rdev? (How a block device path finds its mount.) */
static bool env_source_is(const char *source, dev_t rdev)
{
	struct stat st;

	return source[0] == '/' && stat(source, &st) == 0 && S_ISBLK(st.st_mode) &&
	       st.st_rdev == rdev;
}

/*
 * Fill fs_type, device and mount_point of t from the mount covering real (longest mount point;
 * on a tie the later line, which is the one stacked on top), or, when by_rdev, from the first
 * mount whose source is the block device rdev. No match leaves them NULL.
 */
static int env_find_mount(const char *real, bool by_rdev, dev_t rdev, struct env_target *t)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *best = NULL;
	size_t cap = 0, best_len = 0;
	struct env_mount m;
	int ret = 0;

	if (!f)
		return 0; /* no /proc: the mount fields stay unknown */
	while (getline(&line, &cap, f) > 0) {
		char *copy = strdup(line);

		if (!copy) {
			ret = -ENOMEM;
			break;
		}
		if (!env_parse_mountinfo(copy, &m)) {
			free(copy);
			continue;
		}
		if (by_rdev ? env_source_is(m.source, rdev)
			    : env_mnt_covers(m.mnt, real) && strlen(m.mnt) >= best_len) {
			free(best);
			best = line; /* keep the unparsed line; reparse once at the end */
			best_len = strlen(m.mnt);
			line = NULL;
			cap = 0;
		}
		free(copy);
		if (by_rdev && best)
			break;
	}
	free(line);
	fclose(f);
	if (ret == 0 && best && env_parse_mountinfo(best, &m)) {
		if (env_set_trimmed(&t->fs_type, m.fstype, strlen(m.fstype)) ||
		    env_set_trimmed(&t->mount_point, m.mnt, strlen(m.mnt)) ||
		    (!t->device && env_set_trimmed(&t->device, m.source, strlen(m.source))))
			ret = -ENOMEM;
	}
	free(best);
	return ret;
}

/*
 * Read queue and model attributes of block device maj:min from sysfs, going up to the whole
 * disk for a partition (partitions have no queue/). Returns true when the device is in sysfs.
 */
static bool env_sysfs_fill(unsigned maj, unsigned min, struct env_target *t, int *err)
{
	char link[64], attr[PATH_MAX + 32], model[256];
	char *dir;
	uint32_t v;
	int n;

	if (maj == 0)
		return false; /* anonymous devices: tmpfs, overlay, btrfs subvolumes, ... */
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	dir = realpath(link, NULL);
	if (!dir)
		return false;
	snprintf(attr, sizeof(attr), "%s/partition", dir);
	if (access(attr, F_OK) == 0)
		*strrchr(dir, '/') = '\0';

	snprintf(attr, sizeof(attr), "%s/queue/rotational", dir);
	if (env_read_u32(attr, &v))
		t->rotational = v ? 1 : 0;
	snprintf(attr, sizeof(attr), "%s/queue/logical_block_size", dir);
	if (env_read_u32(attr, &v))
		t->logical_block_size = v;
	snprintf(attr, sizeof(attr), "%s/device/model", dir);
	n = env_read_line(attr, model, sizeof(model));
	if (n > 0 && env_set_trimmed(&t->model, model, (size_t)n))
		*err = -ENOMEM;
	free(dir);
	return true;
}

/* The block device behind a mounted file: st_dev, or else the mount source (btrfs reports an
 * anonymous st_dev but mounts a real /dev node). */
static int env_fill_behind_mount(const struct stat *st, struct env_target *t)
{
	struct stat src;
	int err = 0;

	if (env_sysfs_fill(major(st->st_dev), minor(st->st_dev), t, &err) || err)
		return err;
	if (t->device && t->device[0] == '/' && stat(t->device, &src) == 0 && S_ISBLK(src.st_mode))
		env_sysfs_fill(major(src.st_rdev), minor(src.st_rdev), t, &err);
	return err;
}

/* Logical block size straight from the driver, for a block device sysfs does not show. */
static uint32_t env_blkdev_lbs(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int lbs = 0;

	if (fd < 0)
		return 0;
	if (ioctl(fd, BLKSSZGET, &lbs) != 0 || lbs < 0)
		lbs = 0;
	close(fd);
	return (uint32_t)lbs;
}

/*
 * realpath of path or of its nearest existing parent, into *real (malloc'd). Returns 0, or
 * the -errno of path itself when neither it nor any parent resolves.
 */
static int env_resolve(const char *path, char **real)
{
	char *p = strdup(path), *slash;
	int first_err = 0;
	size_t len;

	if (!p)
		return -ENOMEM;
	for (;;) {
		*real = realpath(p, NULL);
		if (*real)
			break;
		if (errno == ENOMEM) {
			first_err = -ENOMEM;
			break;
		}
		if (!first_err)
			first_err = -errno;
		if (strcmp(p, "/") == 0 || strcmp(p, ".") == 0)
			break;
		len = strlen(p);
		while (len > 1 && p[len - 1] == '/')
			p[--len] = '\0';
		slash = strrchr(p, '/');
		if (!slash)
			strcpy(p, ".");
		else if (slash == p)
			p[1] = '\0';
		else
			*slash = '\0';
	}
	free(p);
	return *real ? 0 : first_err;
}

int env_target_info(const char *path, struct env_target *t)
{
	struct statvfs vfs;
	struct stat st;
	char *real = NULL;
	int ret;

	memset(t, 0, sizeof(*t));
	t->rotational = -1;
	if (!path || !path[0])
		return -EINVAL;
	ret = env_resolve(path, &real);
	if (ret)
		return ret;
	if (stat(real, &st) != 0) {
		ret = -errno;
		goto fail;
	}
	t->path = strdup(path);
	if (!t->path) {
		ret = -ENOMEM;
		goto fail;
	}

	if (S_ISBLK(st.st_mode)) {
		/* The node itself lives on devtmpfs; what matters is where the device is mounted.
		 */
		t->device = real;
		real = NULL;
		ret = env_find_mount(NULL, true, st.st_rdev, t);
		if (!ret)
			env_sysfs_fill(major(st.st_rdev), minor(st.st_rdev), t, &ret);
		if (!ret && t->logical_block_size == 0)
			t->logical_block_size = env_blkdev_lbs(t->device);
	} else {
		ret = env_find_mount(real, false, 0, t);
		if (!ret)
			ret = env_fill_behind_mount(&st, t);
		if (!ret && t->logical_block_size == 0 && statvfs(real, &vfs) == 0 &&
		    vfs.f_bsize <= UINT32_MAX)
			t->logical_block_size = (uint32_t)vfs.f_bsize;
	}
	if (ret)
		goto fail;
	free(real);
	return 0;

fail:
	free(real);
	env_target_release(t);
	return ret;
}

int env_add_target(struct run_env *e, const char *path)
{
	struct env_target t, *grown;
	int ret;

	for (size_t i = 0; i < e->ntargets; i++)
		if (path && e->targets[i].path && strcmp(e->targets[i].path, path) == 0)
			return 0;
	ret = env_target_info(path, &t);
	if (ret)
		return ret;
	grown = realloc(e->targets, (e->ntargets + 1) * sizeof(*grown));
	if (!grown) {
		env_target_release(&t);
		return -ENOMEM;
	}
	e->targets = grown;
	e->targets[e->ntargets++] = t;
	return 0;
}

bool env_fs_is_tmpfs(const struct env_target *t)
{
	return t && t->fs_type && strcmp(t->fs_type, "tmpfs") == 0;
}

/* "model name : AMD EPYC 7B13" from /proc/cpuinfo; absent on most arm64 kernels. */
static int env_cpu_model(char **out)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char *line = NULL, *colon;
	size_t cap = 0;
	int ret = 0;

	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "model name", 10) != 0 || !(colon = strchr(line, ':')))
			continue;
		ret = env_set_trimmed(out, colon + 1, strlen(colon + 1));
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

/* MemTotal from /proc/meminfo, for when sysinfo is unavailable (seccomp sandboxes). */
static uint64_t env_meminfo_total(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kib = 0;
	char line[256];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

/* The clock CLOCK_MONOTONIC runs on: the worker's clock reads the TSC itself only on "tsc". */
static int env_clocksource(char **out)
{
	char buf[64] = "";
	int n = env_read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			      buf, sizeof(buf));

	return n > 0 ? env_set_trimmed(out, buf, (size_t)n) : 0;
}

/* The transparent huge pages mode, the bracketed word of "always [madvise] never": whether
 * huge_buffers can have its huge pages (never: not at all; madvise, always: where the kernel
 * finds 2 MiB free and contiguous). */
static int env_thp(char **out)
{
	char buf[128] = "";
	int n = env_read_line("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf));
	const char *open = n > 0 ? strchr(buf, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;

	return close ? env_set_trimmed(out, open + 1, (size_t)(close - open - 1)) : 0;
}

int env_capture(struct run_env *e)
{
	struct utsname u;
	struct sysinfo si;
	long n;
	int ret;

	memset(e, 0, sizeof(*e));
	if (uname(&u) != 0)
		return -errno;
	ret = env_set_trimmed(&e->hostname, u.nodename, strlen(u.nodename));
	if (!ret)
		ret = env_set_trimmed(&e->kernel, u.release, strlen(u.release));
	if (!ret)
		ret = env_cpu_model(&e->cpu_model);
	if (!ret)
		ret = env_clocksource(&e->clocksource);
	if (!ret)
		ret = env_thp(&e->thp);
	if (ret) {
		env_release(e);
		return ret;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	e->cpus = n > 0 && (unsigned long)n <= UINT32_MAX ? (uint32_t)n : 0;
	if (sysinfo(&si) == 0 && si.totalram > 0)
		e->mem_bytes = (uint64_t)si.totalram * (si.mem_unit ? si.mem_unit : 1);
	else
		e->mem_bytes = env_meminfo_total();
	return 0;
}

void env_target_release(struct env_target *t)
{
	if (!t)
		return;
	free(t->path);
	free(t->fs_type);
	free(t->device);
	free(t->model);
	free(t->mount_point);
	memset(t, 0, sizeof(*t));
	t->rotational = -1;
}

void env_release(struct run_env *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->ntargets; i++)
		env_target_release(&e->targets[i]);
	free(e->targets);
	free(e->hostname);
	free(e->kernel);
	free(e->cpu_model);
	free(e->clocksource);
	free(e->clock);
	free(e->thp);
	memset(e, 0, sizeof(*e));
}
