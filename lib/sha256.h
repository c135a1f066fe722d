/* SHA-256 of a byte buffer as lowercase hex, for results.json's job_file.sha256. */
#ifndef IOTRIAL_SHA256_H
#define IOTRIAL_SHA256_H

#include <stddef.h>

/* Write the 64 hex digits and a NUL into `hex`. Returns 0 or -ENOMEM (hex is then ""). */
int sha256_hex(const void *data, size_t len, char hex[65]);

#endif
