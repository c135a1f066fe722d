/* Unit tests for lib/expand.c: ${NAME} expansion against an injected environment and a
 * builtin table, every error message exactly, and {name} placeholders. Table-driven. */
#include "lib/expand.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The fake environment: no test depends on the real one. */
static const struct expand_var fake_env[] = {
    {"HOME", "/home/ann"},   {"EMPTY", ""},
    {"DEV", "/dev/nvme0n1"}, {"rank", "99"}, /* shadowed by the builtin */
    {"DOLLAR", "${HOME}"},		     /* values are not expanded again */
};

static const char *fake_getenv(const char *name, void *arg)
{
	const struct expand_var *env = arg;

	for (size_t i = 0; i < sizeof(fake_env) / sizeof(fake_env[0]); i++) {
		if (strcmp(env[i].name, name) == 0)
			return env[i].value;
	}
	return NULL;
}

static const struct expand_var builtins[] = {
    {"scratch", "/scratch/job42"}, {"rank", "3"},	  {"size", "8"}, {"host", "node07"},
    {"local_rank", "1"},	   {"unknown_yet", NULL}, /* a NULL value is unset */
};

static const struct expand_ctx ctx = {
    .builtins = builtins,
    .nbuiltins = sizeof(builtins) / sizeof(builtins[0]),
    .getenv = fake_getenv,
    .arg = (void *)fake_env,
};

struct expand_case {
	const char *in;
	int ret;
	const char *want; /* the output, or the exact error message */
};

static const struct expand_case var_cases[] = {
    {"", 0, ""},
    {"plain text", 0, "plain text"},
    {"${HOME}/data", 0, "/home/ann/data"},
    {"a${HOME}b${DEV}c", 0, "a/home/annb/dev/nvme0n1c"},
    {"${_x:-u}", 0, "u"},
    /* unset with a default, both forms */
    {"${NOPE:-/tmp}", 0, "/tmp"},
    {"${NOPE-/tmp}", 0, "/tmp"},
    {"${NOPE:-}", 0, ""},
    {"${NOPE-}", 0, ""},
    /* empty: ':-' takes the default, '-' keeps the empty value */
    {"[${EMPTY:-dflt}]", 0, "[dflt]"},
    {"[${EMPTY-dflt}]", 0, "[]"},
    {"[${EMPTY}]", 0, "[]"},
    /* set: the default is ignored, and an unset variable in it is not an error */
    {"${HOME:-/x}", 0, "/home/ann"},
    {"${HOME-${NOPE}}", 0, "/home/ann"},
    /* nested defaults */
    {"${NOPE:-${HOME}/fallback}", 0, "/home/ann/fallback"},
    {"${A:-${B:-${C:-deep}}}", 0, "deep"},
    {"${A:-x${B-y}z}", 0, "xyz"},
    {"${A:-a$$b}", 0, "a$b"},
    {"${A:-{x}", 0, "{x"},
    /* dollars */
    {"$$", 0, "$"},
    {"cost: $$5", 0, "cost: $5"},
    {"$$${HOME}", 0, "$/home/ann"},
    {"$${HOME}", 0, "${HOME}"},
    {"$", 0, "$"},
    {"a$b $ c$", 0, "a$b $ c$"},
    {"$HOME", 0, "$HOME"},
    {"${DOLLAR}", 0, "${HOME}"},
    /* builtins, and their precedence over the environment */
    {"${scratch}/f.${rank}", 0, "/scratch/job42/f.3"},
    {"${host}:${local_rank}/${size}", 0, "node07:1/8"},
    {"${unknown_yet:-none}", 0, "none"},
    /* errors */
    {"${NOPE}", -ENOENT, "variable 'NOPE' is not set (use ${NOPE:-default} for a default)"},
    {"x${A:-${NOPE}}", -ENOENT, "variable 'NOPE' is not set (use ${NOPE:-default} for a default)"},
    {"${EMPTY-${NOPE}}", 0, ""},
    {"${EMPTY:-${NOPE}}", -ENOENT,
     "variable 'NOPE' is not set (use ${NOPE:-default} for a default)"},
    {"${unknown_yet}", -ENOENT,
     "variable 'unknown_yet' is not set (use ${unknown_yet:-default} for a default)"},
    {"${", -EINVAL, "unterminated '${' at offset 0"},
    {"ab${HOME", -EINVAL, "unterminated '${' at offset 2"},
    {"ab${HOME:-x", -EINVAL, "unterminated '${' at offset 2"},
    {"${A:-${B:-x}", -EINVAL, "unterminated '${' at offset 0"},
    {"${A:-${B", -EINVAL, "unterminated '${' at offset 5"},
    {"${}", -EINVAL, "bad variable name at offset 2"},
    {"${1X}", -EINVAL, "bad variable name at offset 2"},
    {"ab${FOO BAR}", -EINVAL, "bad variable name at offset 7"},
    {"${FOO:=x}", -EINVAL, "bad variable name at offset 5"},
    {"${HOME-${?}}", -EINVAL, "bad variable name at offset 9"}, /* syntax checked unused */
    {"${A.B}", -EINVAL, "bad variable name at offset 3"},
};

static void test_expand_vars(void **state)
{
	for (size_t i = 0; i < sizeof(var_cases) / sizeof(var_cases[0]); i++) {
		const struct expand_case *c = &var_cases[i];
		char err[160] = "unset";
		char *out = (char *)"unset";
		int ret = expand_vars(c->in, &out, &ctx, err, sizeof(err));

		if (ret != c->ret)
			fail_msg("'%s': returned %d, want %d (err: %s)", c->in, ret, c->ret, err);
		if (ret == 0 && strcmp(out, c->want) != 0)
			fail_msg("'%s': got \"%s\", want \"%s\"", c->in, out, c->want);
		if (ret != 0 && (out || strcmp(err, c->want) != 0))
			fail_msg("'%s': err\n  got  \"%s\"\n  want \"%s\"", c->in, err, c->want);
		free(out);
	}
}

/* Builds "${A:-${A:-...x...}}" with `levels` nested references. */
static char *nested(int levels)
{
	size_t len = (size_t)levels * 7 + 2;
	char *s = malloc(len), *p = s;

	assert_non_null(s);
	for (int i = 0; i < levels; i++)
		p += sprintf(p, "${A:-");
	*p++ = 'x';
	for (int i = 0; i < levels; i++)
		*p++ = '}';
	*p = '\0';
	return s;
}

static void test_depth_limit(void **state)
{
	char err[160];
	char *in, *out;

	in = nested(16);
	assert_int_equal(expand_vars(in, &out, &ctx, err, sizeof(err)), 0);
	assert_string_equal(out, "x");
	free(out);
	free(in);

	in = nested(17);
	assert_int_equal(expand_vars(in, &out, &ctx, err, sizeof(err)), -ELOOP);
	assert_null(out);
	assert_string_equal(err, "variables nested more than 16 deep at offset 80");
	free(in);

	/* A huge input must fail cleanly too, not overflow the stack. */
	in = nested(100000);
	assert_int_equal(expand_vars(in, &out, &ctx, err, sizeof(err)), -ELOOP);
	free(in);
}

static void test_null_ctx_uses_environment(void **state)
{
	char err[160];
	char *out;

	assert_int_equal(setenv("IOTRIAL_TEST_EXPAND", "from-env", 1), 0);
	assert_int_equal(expand_vars("<${IOTRIAL_TEST_EXPAND}>", &out, NULL, err, sizeof(err)), 0);
	assert_string_equal(out, "<from-env>");
	free(out);

	/* Builtins without a getenv hook fall back to the process environment. */
	struct expand_ctx c = {.builtins = builtins, .nbuiltins = 1};

	assert_int_equal(
	    expand_vars("${scratch}:${IOTRIAL_TEST_EXPAND}", &out, &c, err, sizeof(err)), 0);
	assert_string_equal(out, "/scratch/job42:from-env");
	free(out);
	unsetenv("IOTRIAL_TEST_EXPAND");
	assert_int_equal(expand_vars("${IOTRIAL_TEST_EXPAND}", &out, NULL, NULL, 0), -ENOENT);
	assert_null(out);
}

static const char *placeholder_lookup(const char *name, void *arg)
{
	if (strcmp(name, "device") == 0)
		return "/dev/nvme0n1";
	if (strcmp(name, "job") == 0)
		return "randread";
	if (strcmp(name, "empty") == 0)
		return "";
	return NULL;
}

static const struct expand_case placeholder_cases[] = {
    {"", 0, ""},
    {"{device}", 0, "/dev/nvme0n1"},
    {"{device}/x", 0, "/dev/nvme0n1/x"},
    {"{job}-{device}{empty}.log", 0, "randread-/dev/nvme0n1.log"},
    {"{{device}", 0, "{device}"},
    {"{{{device}", 0, "{/dev/nvme0n1"},
    {"a{{b", 0, "a{b"},
    {"}", 0, "}"},
    {"{", 0, "{"},
    {"{ device }", 0, "{ device }"},
    {"{dev ice}", 0, "{dev ice}"},
    {"{1}", 0, "{1}"},
    {"{}", 0, "{}"},
    {"{device", 0, "{device"},
    {"$x", 0, "$x"},
    {"{nope}", -ENOENT, "unknown placeholder '{nope}'"},
    {"{device}/{Device}", -ENOENT, "unknown placeholder '{Device}'"},
};

static void test_placeholders(void **state)
{
	for (size_t i = 0; i < sizeof(placeholder_cases) / sizeof(placeholder_cases[0]); i++) {
		const struct expand_case *c = &placeholder_cases[i];
		char err[160] = "unset";
		char *out = (char *)"unset";
		int ret =
		    expand_placeholders(c->in, &out, placeholder_lookup, NULL, err, sizeof(err));

		if (ret != c->ret)
			fail_msg("'%s': returned %d, want %d (err: %s)", c->in, ret, c->ret, err);
		if (ret == 0 && strcmp(out, c->want) != 0)
			fail_msg("'%s': got \"%s\", want \"%s\"", c->in, out, c->want);
		if (ret != 0 && (out || strcmp(err, c->want) != 0))
			fail_msg("'%s': err\n  got  \"%s\"\n  want \"%s\"", c->in, err, c->want);
		free(out);
	}
}

/* The message is cut to the caller's buffer, never overrun. */
static void test_small_err_buffer(void **state)
{
	char err[8];
	char *out;

	memset(err, 'Z', sizeof(err));
	assert_int_equal(expand_vars("${NOPE}", &out, &ctx, err, 6), -ENOENT);
	assert_string_equal(err, "varia");
	assert_int_equal(err[6], 'Z');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_expand_vars),
	    cmocka_unit_test(test_depth_limit),
	    cmocka_unit_test(test_null_ctx_uses_environment),
	    cmocka_unit_test(test_placeholders),
	    cmocka_unit_test(test_small_err_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
