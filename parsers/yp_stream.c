/* A first pass over the job file's YAML events, before libyaml builds the document: it stops
 * at the first syntax error, at nesting deeper than YP_MAX_DEPTH, at a second document, or at
 * a scalar holding a NUL, as the events arrive. libyaml's loader has no depth limit, and its
 * scanner's work grows with the square of the depth: 2,000,000 nested lists took minutes. */
#include <errno.h>
#include <string.h>

#include "parsers/yp.h"

/* Does a line break end at `p` (before `end`), as libyaml counts them: LF, CR alone, NEL,
 * LS, PS (CR LF is one, at its LF)? */
static bool line_break(const unsigned char *p, const unsigned char *end)
{
	if (*p == '\n')
		return true;
	if (*p == '\r')
		return p + 1 >= end || p[1] != '\n';
	if (p + 1 < end && p[0] == 0xc2 && p[1] == 0x85)
		return true;
	return p + 2 < end && p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9);
}

/* Where a reader error is: libyaml gives a byte offset for those (a NUL, bytes that are not
 * UTF-8), not a mark. Line and column (in characters, as the marks count) from the input. */
static struct src_loc reader_loc(const char *name, const yaml_parser_t *parser)
{
	const unsigned char *p = parser->input.string.start, *end = p + parser->problem_offset;
	struct src_loc l = {name, 1, 1};

	if (end > parser->input.string.end)
		end = parser->input.string.end;
	for (; p < end; p++) {
		if (line_break(p, parser->input.string.end)) {
			l.line++;
			l.col = 1;
		} else if ((*p & 0xc0) != 0x80 && !(p[0] == '\r' && p + 1 < end && p[1] == '\n')) {
			l.col++;
		}
	}
	return l;
}

void yp_syntax_error(const char *name, const yaml_parser_t *parser, struct diag *d)
{
	struct src_loc l = {name, (unsigned)parser->problem_mark.line + 1,
			    (unsigned)parser->problem_mark.column + 1};
	const char *problem = parser->problem ? parser->problem : "syntax error";

	if (parser->error == YAML_READER_ERROR && parser->input.string.start)
		l = reader_loc(name, parser);
	if (parser->context)
		diag_add(d, name ? &l : NULL, "yaml: %s %s", problem, parser->context);
	else
		diag_add(d, name ? &l : NULL, "yaml: %s", problem);
}

static struct src_loc event_loc(const char *name, const yaml_event_t *e)
{
	return (struct src_loc){name, (unsigned)e->start_mark.line + 1,
				(unsigned)e->start_mark.column + 1};
}

int yp_check_stream(const char *name, const char *text, size_t len, struct diag *d)
{
	yaml_parser_t parser;
	yaml_event_t e;
	unsigned depth = 0, docs = 0;
	int ret = 0;

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	for (bool end = false; !end && ret == 0;) {
		struct src_loc l;

		if (!yaml_parser_parse(&parser, &e)) {
			/* Memory that ran out is no fault of the file (exit 1, not 2). */
			if (parser.error == YAML_MEMORY_ERROR) {
				ret = -ENOMEM;
				break;
			}
			yp_syntax_error(name, &parser, d);
			ret = -EINVAL;
			break;
		}
		l = event_loc(name, &e);
		switch (e.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1) {
				diag_add(
				    d, name ? &l : NULL,
				    "a second YAML document starts here; a job file is one document");
				ret = -EINVAL;
			}
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > YP_MAX_DEPTH) {
				diag_add(
				    d, name ? &l : NULL,
				    "lists and mappings nested more than %d levels deep (a job file needs a few)",
				    YP_MAX_DEPTH);
				ret = -EINVAL;
			}
			break;
		case YAML_SCALAR_EVENT:
			/* "\0" in a quoted scalar: every use reads it as a C string, so the rest
			 * (of a path, a name, a key) would be dropped without a word. */
			if (strlen((const char *)e.data.scalar.value) != e.data.scalar.length) {
				diag_add(
				    d, name ? &l : NULL,
				    "a value or key holds a NUL character (\\0), which iotrial cannot take");
				ret = -EINVAL;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_STREAM_END_EVENT:
			end = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&parser);
	return ret;
}
