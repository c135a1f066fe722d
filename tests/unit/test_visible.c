/* Unit tests for lib/visible.c and lib/utf8.c: control characters and stray bytes written
 * out, text kept as it is, widths as shown, and cuts between characters. Table-driven. */
#include "lib/visible.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/utf8.h"

static const struct {
	const char *in, *want;
} shown[] = {
    {"plain", "plain"},
    {"", ""},
    {"caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x98\x80"},
    {"a\nb\rc\td", "a\\nb\\rc\\td"},
    {"\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"},
    {"\x1b]0;title\x07", "\\x1b]0;title\\x07"},
    {"\x1b]8;;http://x\x1b\\link", "\\x1b]8;;http://x\\x1b\\link"},
    {"del\x7f", "del\\x7f"},
    {"\x01\x1f", "\\x01\\x1f"},
    /* C1 controls: U+0080, U+009B (CSI), U+009F; U+00A0 is not one. */
    {"\xc2\x80|\xc2\x9b"
     "31m|\xc2\x9f|\xc2\xa0",
     "\\xc2\\x80|\\xc2\\x9b31m|\\xc2\\x9f|\xc2\xa0"},
    /* Not UTF-8: a Latin-1 byte, a lone continuation, a character cut short, an overlong
     * form, a surrogate; the byte after a stray one is looked at afresh. */
    {"caf\xe9", "caf\\xe9"},
    {"\x80x", "\\x80x"},
    {"ab\xe2\x80", "ab\\xe2\\x80"},
    {"\xc0\xaf", "\\xc0\\xaf"},
    {"\xed\xa0\x80", "\\xed\\xa0\\x80"},
    {"\xe9\xc3\xa9", "\\xe9\xc3\xa9"},
};

static void test_shown(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		char *got = visible_dup(shown[i].in), *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(got);
		assert_string_equal(got, shown[i].want);
		assert_non_null(f);
		visible_puts(f, shown[i].in);
		assert_int_equal(fclose(f), 0);
		assert_string_equal(buf, shown[i].want);
		free(buf);
		free(got);
	}
}

/* visible_printf escapes what it formatted, its own newline too; the width counts the
 * escapes' letters and one column per character. */
static void test_printf_width(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char big[3000];

	(void)state;
	assert_non_null(f);
	visible_printf(f, "%s: %d\n", "n\x1b", 7);
	memset(big, 'x', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\r';
	big[sizeof(big) - 1] = 0;
	visible_printf(f, "%s", big); /* past the 1024-byte buffer */
	assert_int_equal(fclose(f), 0);
	assert_memory_equal(buf, "n\\x1b: 7\\n", 10);
	assert_int_equal(len, 10 + sizeof(big) - 2 + 2);
	assert_string_equal(buf + len - 3, "x\\r");
	free(buf);
	assert_int_equal(visible_width("\xc2\xb1"
				       "CI"),
			 3);
	assert_int_equal(visible_width("a\x1b"), 5);
	assert_int_equal(visible_width("\xc2\x9b"), 8);
	assert_int_equal(visible_width("caf\xe9"), 7);
}

static void test_cut(void **state)
{
	static const struct {
		const char *s;
		size_t max, want;
	} cases[] = {
	    {"abc", 5, 3},
	    {"abc", 3, 3},
	    {"abcd", 3, 3},
	    {"\xc3\xa9\xc3\xa9", 3, 2}, /* é é: the second é would be cut */
	    {"\xc3\xa9\xc3\xa9", 2, 2},
	    {"a\xe2\x80\xa6z", 3, 1}, /* … starts at 1 */
	    {"a\xe2\x80\xa6z", 4, 4},
	    {"\xf0\x9f\x98\x80", 1, 0},
	    {"", 0, 0},
	};

	char buf[6];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(utf8_cut(cases[i].s, cases[i].max), cases[i].want);
	/* utf8_snprintf: snprintf's return, the cut where a character starts. */
	assert_int_equal(utf8_snprintf(buf, sizeof(buf), "%s", "a\xc3\xa9\xc3\xa9\xc3\xa9"), 7);
	assert_string_equal(buf, "a\xc3\xa9\xc3\xa9");
	assert_int_equal(utf8_snprintf(buf, sizeof(buf), "%s%d", "\xc3\xa9\xc3\xa9", 12), 6);
	assert_string_equal(buf, "\xc3\xa9\xc3\xa9"
				 "1");
	assert_int_equal(utf8_snprintf(buf, sizeof(buf), "%s", "ab"), 2);
	assert_string_equal(buf, "ab");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shown),
	    cmocka_unit_test(test_printf_width),
	    cmocka_unit_test(test_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
