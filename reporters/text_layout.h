/* The text summary's report table: `report: {table: {columns: KEY, rows: [...]}}` of the
 * job file, as results.json keeps it (the SQLIO paper's devices-as-columns table). */
#ifndef IOTRIAL_TEXT_LAYOUT_H
#define IOTRIAL_TEXT_LAYOUT_H

#include <stdio.h>

#include "model/results.h"

/* Print the table (nothing when the results have none): the values of the column key as
 * columns; per row, a job's metric (a line per variant when the job has several instances
 * in a column) or what each device's job file says; n/a where a job did not run on a
 * column's device. Returns 0 or -ENOMEM. */
int text_layout(const struct results *r, FILE *out);

#endif
