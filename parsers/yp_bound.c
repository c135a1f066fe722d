/* A bound on the values of a job file, checked on libyaml's events before anything else
 * reads it. libyaml's loader keeps some 80 bytes for each value it builds, and its node
 * stack's int size is what fails first: a file of 31 million one-letter list items, under
 * the 64 MiB cap, took 2.7 GB and ended "out of memory" (exit 1) instead of a job file
 * error. This pass stops at the bound after reading that much, whatever follows. */
#include <errno.h>

#include "parsers/yp.h"

int yp_check_values(const char *name, const char *text, size_t len, struct diag *d)
{
	yaml_parser_t parser;
	yaml_event_t e;
	unsigned depth = 0, docs = 0;
	size_t values = 0;
	int ret = 0;

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	/* A syntax error, memory that ran out, a nesting too deep (whose scanning grows with
	 * the square of the depth) or a second document: yp_check_stream says what, so stop
	 * here and leave it to that. */
	while (ret == 0 && yaml_parser_parse(&parser, &e)) {
		yaml_event_type_t t = e.type;

		if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT)
			depth++;
		else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT)
			depth--;
		if ((t == YAML_SCALAR_EVENT || t == YAML_ALIAS_EVENT ||
		     t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) &&
		    ++values > YP_MAX_VALUES) {
			struct src_loc l = {name, (unsigned)e.start_mark.line + 1,
					    (unsigned)e.start_mark.column + 1};
			diag_add(
			    d, name ? &l : NULL,
			    "more than %d values (keys, values, lists and mappings) in one job file; a job file needs far fewer",
			    YP_MAX_VALUES);
			ret = -EINVAL;
		}
		yaml_event_delete(&e);
		if (t == YAML_STREAM_END_EVENT || depth > YP_MAX_DEPTH ||
		    (t == YAML_DOCUMENT_START_EVENT && ++docs > 1))
			break;
	}
	yaml_parser_delete(&parser);
	return ret;
}
