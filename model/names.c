/* The enumerations' names (see names.h). */
#include "model/names.h"

#include <stdio.h>
#include <string.h>

#include "model/results.h"

const char *const outlier_policy_names[] = {
    [OUTLIERS_NONE] = "none", [OUTLIERS_TRIM] = "trim",	 [OUTLIERS_IQR] = "iqr",
    [OUTLIERS_MAD] = "mad",   [OUTLIERS_MAD + 1] = NULL,
};

const char *const order_names[] = {
    [ORDER_INTERLEAVED] = "interleaved",
    [ORDER_SEQUENTIAL] = "sequential",
    [ORDER_RANDOM] = "random",
    [ORDER_RANDOM + 1] = NULL,
};

const char *const units_names[] = {
    [UNITS_DECIMAL] = "decimal",
    [UNITS_BINARY] = "binary",
    [UNITS_BINARY + 1] = NULL,
};

const char *const series_kind_names[] = {
    [SERIES_RECORDS] = "records",
    [SERIES_INTERVALS] = "intervals",
    [SERIES_INTERVALS + 1] = NULL,
};

const char *const cmp_test_names[] = {
    [CMP_WELCH] = "welch",
    [CMP_PAIRED_T] = "paired-t",
    [CMP_PAIRED_T + 1] = NULL,
};

const char *const stop_reason_names[] = {
    [STOP_PRECISION] = "precision",	[STOP_MAX] = "max",
    [STOP_INTERRUPTED] = "interrupted", [STOP_PILOT_ESTIMATE] = "pilot estimate",
    [STOP_PILOT_ESTIMATE + 1] = NULL,
};

const char *const hpages_state_names[] = {
    [HP_OFF] = "off",	     [HP_GRANTED] = "granted",	 [HP_PARTIAL] = "partial",
    [HP_NONE] = "none",	     [HP_FALLBACK] = "fallback", [HP_UNKNOWN] = "unknown",
    [HP_UNKNOWN + 1] = NULL,
};

const char *const estimate_names[] = {
    [ESTIMATE_KEPT] = "kept",
    [ESTIMATE_PILOT] = "pilot",
    [ESTIMATE_PILOT + 1] = NULL,
};

const char *names_get(const char *const *names, int v)
{
	for (int i = 0; v >= 0 && names[i]; i++)
		if (i == v)
			return names[i];
	return NULL;
}

int names_find(const char *const *names, const char *name)
{
	for (int i = 0; name && names[i]; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

void names_list(char *buf, size_t len, const char *const *names)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; names[i] && n < len; i++) {
		const char *sep = i == 0 ? "" : names[i + 1] ? ", " : " or ";
		int w = snprintf(buf + n, len - n, "%s%s", sep, names[i]);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}
