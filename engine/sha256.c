/* SHA-256 through OpenSSL's EVP interface (libcrypto): no hand-written digest. */
#include "engine/sha256.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>

int sha256_hex(const void *data, size_t len, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	hex[0] = 0;
	if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32)
		return -ENOMEM;
	for (unsigned i = 0; i < mdlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return 0;
}
