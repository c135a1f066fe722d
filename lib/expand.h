/* Expansion of job-file strings: ${NAME} variables (builtins such as ${scratch} and ${rank},
 * then the environment) with sh-style defaults, and {name} placeholders such as "{device}"
 * that are filled in per target once the plan knows them. */
#ifndef IOTRIAL_EXPAND_H
#define IOTRIAL_EXPAND_H

#include <stddef.h>

struct expand_var {
	const char *name;  /* lowercase by convention: scratch, rank, size, host, local_rank */
	const char *value; /* NULL: treated as unset */
};

struct expand_ctx {
	const struct expand_var *builtins; /* looked up first; they shadow the environment */
	size_t nbuiltins;
	/* The environment; NULL means getenv(3). Tests inject one here. Returns NULL if unset. */
	const char *(*getenv)(const char *name, void *arg);
	void *arg;
};

/*
 * Expand variables in `in` into a new string *out (malloc'd; the caller frees it).
 *
 *   ${NAME}          value of NAME; an error if NAME is unset
 *   ${NAME:-default} default when NAME is unset or empty (as in POSIX sh)
 *   ${NAME-default}  default only when NAME is unset
 *   $$               a literal '$'; a '$' followed by anything but '{' or '$' is kept as is
 *
 * NAME is [A-Za-z_][A-Za-z0-9_]*. A default may itself contain ${...}, expanded only when the
 * default is used, up to 16 levels deep; it ends at the first '}' not closing a nested ${.
 * Values are inserted verbatim, never expanded again. `ctx` may be NULL (environment only).
 *
 * Returns 0, or on error sets *out = NULL, writes a one-line message into err (if errlen > 0)
 * and returns: -ENOENT "variable 'NAME' is not set (use ${NAME:-default} for a default)";
 * -EINVAL "unterminated '${' at offset N" or "bad variable name at offset N"; -ELOOP when
 * nesting exceeds the limit; -ENOMEM. Offsets count bytes from the start of `in`.
 */
int expand_vars(const char *in, char **out, const struct expand_ctx *ctx, char *err, size_t errlen);

/*
 * Replace {NAME} placeholders in `in` by lookup(NAME, arg) into a new string *out (malloc'd;
 * the caller frees it). "{{" is a literal '{'. A '{' that does not start {NAME} (name as for
 * expand_vars, then '}') and every '}' are kept as they are. Run expand_vars first: the two
 * syntaxes overlap inside "${NAME}".
 *
 * Returns 0, or sets *out = NULL, writes the message into err and returns -ENOENT
 * "unknown placeholder '{NAME}'" when lookup returns NULL, or -ENOMEM.
 */
int expand_placeholders(const char *in, char **out,
			const char *(*lookup)(const char *name, void *arg), void *arg, char *err,
			size_t errlen);

#endif
