/* SHA-256 through libcrypto (OpenSSL): no hand-written digest. */
/* The low-level SHA256_* calls, deprecated in OpenSSL 3 in favour of EVP: EVP_Digest goes
 * through the provider machinery, which OpenSSL 3.0 sets up on first use without checking
 * its allocations, and then dereferences a NULL lock (SIGSEGV under ulimit -v). The
 * low-level digest allocates nothing. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "lib/sha256.h"

#include <errno.h>
#include <openssl/sha.h>
#include <stdio.h>

int sha256_hex(const void *data, size_t len, char hex[65])
{
	unsigned char md[SHA256_DIGEST_LENGTH];
	SHA256_CTX c;

	hex[0] = 0;
	if (!SHA256_Init(&c) || !SHA256_Update(&c, data, len) || !SHA256_Final(md, &c))
		return -ENOMEM;
	for (unsigned i = 0; i < SHA256_DIGEST_LENGTH; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return 0;
}
