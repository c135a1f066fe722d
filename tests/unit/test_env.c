/* Unit tests for lib/env.c: machine capture against uname/sysconf, and target capture
 * against an independent reading of /proc/self/mountinfo on this machine's real mounts. */
#include "lib/env.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

/* The mount whose mount point is exactly mnt (last one wins: stacked on top), parsed here
 * with sscanf so the test does not share the module's parser. */
static bool mountinfo_lookup(const char *mnt, char *fstype, char *source)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], point[PATH_MAX], ft[256], src[PATH_MAX];
	bool found = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1 ||
		    sscanf(dash + 3, "%255s %4095s", ft, src) != 2)
			continue;
		if (strcmp(point, mnt) == 0) {
			strcpy(fstype, ft);
			strcpy(source, src);
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static void print_target(const struct env_target *t)
{
	print_message("  %s: fs_type=%s mount=%s device=%s model=%s rotational=%d lbs=%u\n",
		      t->path, t->fs_type ? t->fs_type : "null",
		      t->mount_point ? t->mount_point : "null", t->device ? t->device : "null",
		      t->model ? t->model : "null", t->rotational, t->logical_block_size);
}

/* Same file system, mount and device: what a nonexistent path must inherit from its parent. */
static void assert_same_mount(const struct env_target *a, const struct env_target *b)
{
	assert_non_null(a->fs_type);
	assert_string_equal(a->fs_type, b->fs_type);
	assert_string_equal(a->mount_point, b->mount_point);
	assert_string_equal(a->device, b->device);
	assert_int_equal(a->rotational, b->rotational);
	assert_int_equal(a->logical_block_size, b->logical_block_size);
}

/* The kernel's clocksource as sysfs gives it (without the newline), or NULL without one. */
static void assert_clocksource(const char *got)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
	char want[64] = "";

	if (f && !fgets(want, sizeof(want), f))
		want[0] = 0;
	if (f)
		fclose(f);
	want[strcspn(want, "\n")] = 0;
	if (!want[0]) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
}

static void test_capture(void **state)
{
	struct run_env e;
	struct utsname u;

	assert_int_equal(uname(&u), 0);
	assert_int_equal(env_capture(&e), 0);
	assert_non_null(e.hostname);
	assert_true(strlen(e.hostname) > 0);
	assert_non_null(e.kernel);
	assert_string_equal(e.kernel, u.release);
	assert_int_equal(e.cpus, sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(e.mem_bytes > 0);
	assert_true(e.cpu_model == NULL || strlen(e.cpu_model) > 0);
	assert_clocksource(e.clocksource);
	assert_null(e.clock); /* the engine's to set */
	assert_null(e.targets);
	assert_int_equal(e.ntargets, 0);
	print_message("  host=%s kernel=%s cpu=%s cpus=%u mem=%llu\n", e.hostname, e.kernel,
		      e.cpu_model ? e.cpu_model : "null", e.cpus, (unsigned long long)e.mem_bytes);
	env_release(&e);
	env_release(&e);
	assert_null(e.hostname);
}

/* In a chroot, "/" is not a mount the process can see: the file-system checks below then
 * have nothing to compare with. */
static bool root_visible(void)
{
	char fstype[256], source[PATH_MAX];

	if (mountinfo_lookup("/", fstype, source))
		return true;
	print_message("  skip: no mount for / in /proc/self/mountinfo (a chroot?)\n");
	return false;
}

static void test_root(void **state)
{
	char fstype[256], source[PATH_MAX];
	struct env_target t;

	if (!root_visible())
		skip();
	assert_true(mountinfo_lookup("/", fstype, source));
	assert_int_equal(env_target_info("/", &t), 0);
	print_target(&t);
	assert_string_equal(t.path, "/");
	assert_string_equal(t.fs_type, fstype);
	assert_string_equal(t.device, source);
	assert_string_equal(t.mount_point, "/");
	assert_true(is_pow2(t.logical_block_size));
	assert_true(t.logical_block_size >= 512);
	assert_true(t.rotational >= -1 && t.rotational <= 1);
	assert_false(env_fs_is_tmpfs(&t) != (strcmp(fstype, "tmpfs") == 0));
	env_target_release(&t);
	env_target_release(&t);
}

/* Paths that do not exist yet, under a fresh directory, each described by that directory. */
static void test_nonexistent(void **state)
{
	static const char *const suffixes[] = {
	    "/missing", "/missing/", "/missing/deeper/still", "//missing//deeper", "/./missing/..",
	};
	char dir[] = "/tmp/iotrial-env-XXXXXX", path[PATH_MAX];
	struct env_target base, t;

	if (!root_visible())
		skip();

	assert_non_null(mkdtemp(dir));
	assert_int_equal(env_target_info(dir, &base), 0);
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dir, suffixes[i]);
		assert_int_equal(env_target_info(path, &t), 0);
		assert_string_equal(t.path, path);
		assert_same_mount(&t, &base);
		env_target_release(&t);
	}
	env_target_release(&base);
	rmdir(dir);

	if (access("/tmp/nonexistent", F_OK) == 0)
		return; /* someone made it; the mkdtemp cases above already cover the fallback */
	assert_int_equal(env_target_info("/tmp", &base), 0);
	assert_int_equal(env_target_info("/tmp/nonexistent/deeper", &t), 0);
	print_target(&base);
	print_target(&t);
	assert_same_mount(&t, &base);
	env_target_release(&t);
	env_target_release(&base);
}

static void test_relative(void **state)
{
	struct env_target dot, t;
	char cwd[PATH_MAX];

	if (!root_visible())
		skip();

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(env_target_info(cwd, &dot), 0);
	assert_int_equal(env_target_info("no-such-file-iotrial", &t), 0);
	assert_string_equal(t.path, "no-such-file-iotrial");
	assert_same_mount(&t, &dot);
	env_target_release(&t);
	env_target_release(&dot);
}

static void test_dev_shm(void **state)
{
	struct env_target t;
	struct stat st;

	if (stat("/dev/shm", &st) != 0 || !S_ISDIR(st.st_mode)) {
		print_message("  skip: /dev/shm is absent\n");
		skip();
	}
	assert_int_equal(env_target_info("/dev/shm", &t), 0);
	print_target(&t);
	if (!t.fs_type || strcmp(t.fs_type, "tmpfs") != 0) {
		print_message("  skip: /dev/shm is %s, not tmpfs\n",
			      t.fs_type ? t.fs_type : "null");
		env_target_release(&t);
		skip();
	}
	assert_true(env_fs_is_tmpfs(&t));
	assert_string_equal(t.mount_point, "/dev/shm");
	assert_int_equal(t.rotational, -1);
	assert_null(t.model);
	assert_true(t.logical_block_size > 0);
	env_target_release(&t);
}

/* The block device behind "/" given as a path: same queue properties, its node as device. */
static void test_block_device(void **state)
{
	char uevent[64], line[256], node[PATH_MAX] = "";
	struct env_target root, t;
	struct stat st;
	FILE *f;

	assert_int_equal(stat("/", &st), 0);
	snprintf(uevent, sizeof(uevent), "/sys/dev/block/%u:%u/uevent", major(st.st_dev),
		 minor(st.st_dev));
	f = fopen(uevent, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "DEVNAME=", 8) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(node, sizeof(node), "/dev/%s", line + 8);
		}
	if (f)
		fclose(f);
	if (!node[0] || stat(node, &st) != 0 || !S_ISBLK(st.st_mode)) {
		print_message("  skip: \"/\" is not on a block device node visible here\n");
		skip();
	}
	assert_int_equal(env_target_info("/", &root), 0);
	assert_int_equal(env_target_info(node, &t), 0);
	print_target(&t);
	assert_string_equal(t.device, node);
	assert_int_equal(t.rotational, root.rotational);
	assert_int_equal(t.logical_block_size, root.logical_block_size);
	assert_true(t.logical_block_size >= 512 && is_pow2(t.logical_block_size));
	if (root.device && strcmp(root.device, node) == 0) {
		assert_string_equal(t.fs_type, root.fs_type);
		assert_string_equal(t.mount_point, "/");
	}
	env_target_release(&t);
	env_target_release(&root);
}

static void test_add_target(void **state)
{
	static const char *const paths[] = {"/", "/tmp", "/", "/tmp", "/"};
	struct run_env e;

	assert_int_equal(env_capture(&e), 0);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		assert_int_equal(env_add_target(&e, paths[i]), 0);
	assert_int_equal(e.ntargets, 2);
	assert_string_equal(e.targets[0].path, "/");
	assert_string_equal(e.targets[1].path, "/tmp");
	assert_int_equal(env_add_target(&e, ""), -EINVAL);
	assert_int_equal(e.ntargets, 2);
	env_release(&e);
	assert_int_equal(e.ntargets, 0);
}

static void test_edges(void **state)
{
	struct env_target t = {.fs_type = "ext4"};

	assert_false(env_fs_is_tmpfs(NULL));
	assert_false(env_fs_is_tmpfs(&t));
	t.fs_type = NULL;
	assert_false(env_fs_is_tmpfs(&t));
	assert_int_equal(env_target_info("", &t), -EINVAL);
	assert_null(t.path);
	assert_int_equal(t.rotational, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_capture),	cmocka_unit_test(test_root),
	    cmocka_unit_test(test_nonexistent), cmocka_unit_test(test_relative),
	    cmocka_unit_test(test_dev_shm),	cmocka_unit_test(test_block_device),
	    cmocka_unit_test(test_add_target),	cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
