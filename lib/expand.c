/* Expansion of ${NAME} variables (with sh-style defaults) and {name} placeholders in job-file
 * strings. A small recursive-descent scanner over the input; output grows in a heap buffer. */
#include "lib/expand.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Defaults nest by recursion; the limit bounds the stack a hostile job file can use. */
#define EXPAND_MAX_DEPTH 16

struct expand_buf {
	char *p;
	size_t len;
	size_t cap;
	bool oom;
};

struct expand_state {
	const char *base; /* start of the input, for offsets in messages */
	const struct expand_ctx *ctx;
	struct expand_buf out;
	char *err;
	size_t errlen;
};

/* Out of memory is remembered and reported once, at the end, instead of at every append. */
static void expand_buf_add(struct expand_buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* Hand the buffer to *out, or free it; shared by both public functions. */
static int expand_finish(struct expand_buf *b, int ret, char **out, char *err, size_t errlen)
{
	if (!ret && !b->p)
		expand_buf_add(b, "", 0);
	if (!ret && b->oom) {
		ret = -ENOMEM;
		if (errlen)
			snprintf(err, errlen, "out of memory");
	}
	if (ret) {
		free(b->p);
		*out = NULL;
		return ret;
	}
	*out = b->p;
	return 0;
}

__attribute__((format(printf, 3, 4))) static int expand_fail(struct expand_state *st, int ret,
							     const char *fmt, ...)
{
	va_list ap;

	if (st->errlen) {
		va_start(ap, fmt);
		vsnprintf(st->err, st->errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

static bool expand_name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool expand_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Builtins shadow the environment, so ${rank} means the MPI rank whatever the shell says. */
static const char *expand_lookup(const struct expand_ctx *ctx, const char *name)
{
	if (!ctx)
		return getenv(name);
	for (size_t i = 0; i < ctx->nbuiltins; i++) {
		if (strcmp(ctx->builtins[i].name, name) == 0)
			return ctx->builtins[i].value;
	}
	return ctx->getenv ? ctx->getenv(name, ctx->arg) : getenv(name);
}

static int expand_ref(struct expand_state *st, const char **pp, int depth, bool emit);

/*
 * Copy text from *pp, expanding $$ and ${...}, until the end of the input or, inside a
 * default (in_default), until the '}' that closes it; *pp is left on that '\0' or '}'.
 * With emit false nothing is looked up or written: the default is only being skipped, but
 * its syntax is still checked.
 */
static int expand_seg(struct expand_state *st, const char **pp, int depth, bool in_default,
		      bool emit)
{
	const char *p = *pp;
	int ret = 0;

	while (*p && !(in_default && *p == '}')) {
		if (p[0] == '$' && p[1] == '{') {
			ret = expand_ref(st, &p, depth, emit);
			if (ret)
				break;
			continue;
		}
		if (emit)
			expand_buf_add(&st->out, p, 1);
		/* "$$" is one literal '$'. */
		p += (p[0] == '$' && p[1] == '$') ? 2 : 1;
	}
	*pp = p;
	return ret;
}

/* One ${NAME}, ${NAME-default} or ${NAME:-default}; *pp is on its '$' and moves past its '}'. */
static int expand_ref(struct expand_state *st, const char **pp, int depth, bool emit)
{
	const char *start = *pp, *p = start + 2, *name = p, *val = NULL;
	size_t off = (size_t)(start - st->base), nlen;
	bool has_default = false, colon = false, use_default = false;
	char *key;
	int ret;

	if (depth >= EXPAND_MAX_DEPTH)
		return expand_fail(st, -ELOOP, "variables nested more than %d deep at offset %zu",
				   EXPAND_MAX_DEPTH, off);
	if (!*p)
		return expand_fail(st, -EINVAL, "unterminated '${' at offset %zu", off);
	if (!expand_name_start(*p))
		return expand_fail(st, -EINVAL, "bad variable name at offset %zu",
				   (size_t)(p - st->base));
	while (expand_name_char(*p))
		p++;
	nlen = (size_t)(p - name);

	if (p[0] == ':' && p[1] == '-') {
		has_default = colon = true;
		p += 2;
	} else if (p[0] == '-') {
		has_default = true;
		p++;
	} else if (!*p) {
		return expand_fail(st, -EINVAL, "unterminated '${' at offset %zu", off);
	} else if (*p != '}') {
		return expand_fail(st, -EINVAL, "bad variable name at offset %zu",
				   (size_t)(p - st->base));
	}

	if (emit) {
		key = strndup(name, nlen);
		if (!key)
			return expand_fail(st, -ENOMEM, "out of memory");
		val = expand_lookup(st->ctx, key);
		free(key);
		if (!val && !has_default)
			return expand_fail(
			    st, -ENOENT,
			    "variable '%.*s' is not set (use ${%.*s:-default} for a default)",
			    (int)nlen, name, (int)nlen, name);
		use_default = has_default && (!val || (colon && !*val));
		if (!use_default)
			expand_buf_add(&st->out, val, strlen(val));
	}
	if (has_default) {
		ret = expand_seg(st, &p, depth + 1, true, use_default);
		if (ret)
			return ret;
		if (*p != '}')
			return expand_fail(st, -EINVAL, "unterminated '${' at offset %zu", off);
	}
	*pp = p + 1;
	return 0;
}

int expand_vars(const char *in, char **out, const struct expand_ctx *ctx, char *err, size_t errlen)
{
	struct expand_state st = {
	    .base = in,
	    .ctx = ctx,
	    .err = err,
	    .errlen = errlen,
	};
	const char *p = in;
	int ret;

	if (errlen)
		err[0] = '\0';
	ret = expand_seg(&st, &p, 0, false, true);
	return expand_finish(&st.out, ret, out, err, errlen);
}

int expand_placeholders(const char *in, char **out,
			const char *(*lookup)(const char *name, void *arg), void *arg, char *err,
			size_t errlen)
{
	struct expand_buf b = {0};
	const char *p = in;
	int ret = 0;

	if (errlen)
		err[0] = '\0';
	while (*p) {
		const char *name = p + 1, *q = name, *val;
		char *key;

		if (p[0] == '{' && p[1] == '{') {
			expand_buf_add(&b, "{", 1);
			p += 2;
			continue;
		}
		if (p[0] != '{' || !expand_name_start(*name)) {
			expand_buf_add(&b, p++, 1);
			continue;
		}
		while (expand_name_char(*q))
			q++;
		if (*q != '}') {
			/* Not a placeholder ("{a b}", "{x"): keep the brace as text. */
			expand_buf_add(&b, p++, 1);
			continue;
		}
		key = strndup(name, (size_t)(q - name));
		if (!key) {
			b.oom = true;
			break;
		}
		val = lookup(key, arg);
		free(key);
		if (!val) {
			if (errlen)
				snprintf(err, errlen, "unknown placeholder '{%.*s}'",
					 (int)(q - name), name);
			ret = -ENOENT;
			break;
		}
		expand_buf_add(&b, val, strlen(val));
		p = q + 1;
	}
	return expand_finish(&b, ret, out, err, errlen);
}
