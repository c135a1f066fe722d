/* The reporter registry and the atomic file writer they share (see reporter.h). */
#include "reporters/reporter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const struct rep_ops rep_text, rep_json, rep_csv;

const struct rep_ops *const rep_registry[] = {&rep_text, &rep_json, &rep_csv, NULL};

const struct rep_ops *rep_find(const char *name)
{
	for (size_t i = 0; rep_registry[i]; i++)
		if (!strcmp(rep_registry[i]->name, name))
			return rep_registry[i];
	return NULL;
}

int rep_write_path(const struct rep_ops *rep, const struct results *r, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *tmp = NULL;
	FILE *f = NULL;
	int fd, ret;

	/* The temporary file sits next to the target, so the rename stays on one file system. */
	if (asprintf(&tmp, "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0, path,
		     slash ? slash + 1 : path) < 0) {
		tmp = NULL;
		ret = -ENOMEM;
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	if (!(f = fdopen(fd, "w"))) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		goto out;
	}
	ret = rep->write(r, f);
	if (fflush(f) != 0 || ferror(f))
		ret = ret ? ret : -errno;
	if (ret == 0 && fsync(fileno(f)) < 0)
		ret = -errno;
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && rename(tmp, path) < 0)
		ret = -errno;
	if (ret != 0)
		unlink(tmp);
	else
		chmod(path, 0644);
out:
	free(tmp);
	return ret;
}

int rep_write_file(const struct rep_ops *rep, const struct results *r, const char *dir)
{
	char *path = NULL;
	int ret;

	if (asprintf(&path, "%s/%s", dir, rep->file) < 0)
		return -ENOMEM;
	ret = rep_write_path(rep, r, path);
	free(path);
	return ret;
}
