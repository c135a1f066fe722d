/* Reading a job file from disk (see jobfile.h): its bytes, or one line saying why not. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parsers/jobfile.h"

#define MAX_JOB_FILE (64u << 20)

int yp_read_file(const char *path, char **text, size_t *len, struct diag *d)
{
	size_t cap = 0;
	char *buf = NULL;
	struct stat st;
	ssize_t n;
	int fd, ret = 0;

	*text = NULL;
	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		ret = -errno;
		diag_add(d, NULL, "%s: cannot open job file: %s", path, strerror(-ret));
		return ret;
	}
	/* read() on a folder fails with EISDIR, which stdio reported as an I/O error. */
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		diag_add(d, NULL, "%s: cannot read job file: it is a folder", path);
		close(fd);
		return -EISDIR;
	}
	for (;;) {
		/* Room for one byte past the limit: a file of exactly 64 MiB is read whole, and a
		 * larger one is known as soon as that byte arrives. */
		if (*len == cap) {
			size_t ncap = cap ? 2 * cap : 65536;
			char *nb = NULL;
			if (ncap > MAX_JOB_FILE + 1)
				ncap = MAX_JOB_FILE + 1;
			if (cap > MAX_JOB_FILE || !(nb = realloc(buf, ncap + 1))) {
				ret = cap > MAX_JOB_FILE ? -EFBIG : -ENOMEM;
				diag_add(d, NULL, "%s: %s", path,
					 ret == -EFBIG ? "job file too large (limit 64 MiB)"
						       : "out of memory");
				goto fail;
			}
			buf = nb;
			cap = ncap;
		}
		n = read(fd, buf + *len, cap - *len);
		if (n == 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			diag_add(d, NULL, "%s: cannot read job file: %s", path, strerror(-ret));
			goto fail;
		}
		*len += (size_t)n;
	}
	close(fd);
	buf[*len] = 0;
	*text = buf;
	return 0;
fail:
	free(buf);
	close(fd);
	*len = 0;
	return ret;
}

int yp_load_file(const char *path, const struct yp_options *opt, struct exp_spec *out,
		 struct diag *d)
{
	char *text;
	size_t len;
	int ret;

	memset(out, 0, sizeof(*out));
	if ((ret = yp_read_file(path, &text, &len, d)) < 0)
		return ret;
	ret = yp_load_string(path, text, len, opt, out, d);
	free(text);
	return ret;
}
