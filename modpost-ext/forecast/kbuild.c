/* Compiling probes: every probe source of the run in one scratch folder,
 * compiled by the target's own Kbuild (make -C KDIR M=SCRATCH -k p0.o
 * ...) with the plugin in its probe mode, so the target's configuration,
 * flags and include paths hold, nothing copied by hand; each probe's
 * results (the plugin's p<N>.probe) are cached under the target's key and
 * the probe source's hash. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forecast/kbuild.h"
#include "forecast/probe.h"

static uint64_t hash_stat(uint64_t h, const char *path)
{
	struct stat st;

	h = ks_hash_bytes(path, strlen(path) + 1, h);
	if (stat(path, &st) == 0) {
		h = ks_hash_bytes(&st.st_size, sizeof(st.st_size), h);
		h = ks_hash_bytes(&st.st_mtim, sizeof(st.st_mtim), h);
	}
	return h;
}

/* What a probe's results depend on besides its source: the target (its
 * folder, configuration and exports) and the plugin that answers. */
uint64_t ks_kbuild_key(const char *kdir, const char *plugin)
{
	static const char *const files[] = { "Module.symvers", ".config", "Makefile",
					     "include/generated/utsrelease.h" };
	char *real = realpath(kdir, NULL);
	uint64_t h = ks_hash_bytes(KS_VERSION, sizeof(KS_VERSION), 0x6b6275696c64);

	h = ks_hash_bytes(real ? real : kdir, strlen(real ? real : kdir), h);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *p = ks_strdupf("%s/%s", kdir, files[i]);

		h = p ? hash_stat(h, p) : h;
		free(p);
	}
	free(real);
	return plugin ? hash_stat(h, plugin) : h;
}

static char *cache_file(const char *cache, uint64_t key, uint64_t hash)
{
	char *dir = cache ? ks_strdupf("%s/%016llx", cache, (unsigned long long)key) : NULL;
	char *path = dir ? ks_strdupf("%s/%016llx.probe", dir, (unsigned long long)hash) : NULL;

	if (dir)
		mkdir(dir, 0755);
	free(dir);
	return path;
}

int ks_kbuild_cached(const char *cache, uint64_t key, uint64_t hash, struct ks_buf *out)
{
	char *path = cache_file(cache, key, hash);
	int r = path ? ks_buf_read_file(out, path) : -ENOENT;

	free(path);
	return r == -ENOMEM ? r : r ? 1 : 0;
}

/* Best effort: a cache that cannot be written only costs the next run. */
void ks_kbuild_keep(const char *cache, uint64_t key, uint64_t hash, const struct ks_buf *res)
{
	char *path = cache_file(cache, key, hash);
	char *tmp = path ? ks_strdupf("%s.%ld.tmp", path, (long)getpid()) : NULL;
	FILE *f = tmp ? fopen(tmp, "w") : NULL;
	bool ok = f && fwrite(res->p, 1, res->len, f) == res->len;

	if (f)
		ok = fclose(f) == 0 && ok;
	if (tmp && (!ok || rename(tmp, path) < 0))
		unlink(tmp);
	free(tmp);
	free(path);
}

static int write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fwrite(text, 1, len, f) == len;

	if (f)
		ok = fclose(f) == 0 && ok;
	return ok ? 0 : -errno ? -errno : -EIO;
}

/* The scratch folder with p<N>.c for each of the n sources and a Kbuild
 * naming their objects. */
int ks_kbuild_prepare(struct ks_kbuild *kb, struct ks_buf *const *sources, size_t n)
{
	const char *tmp = getenv("TMPDIR");
	struct ks_buf kbuild = KS_BUF_INIT;
	int r;

	kb->dir = ks_strdupf("%s/ksunset-probe.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!kb->dir)
		return -ENOMEM;
	if (!mkdtemp(kb->dir))
		return -errno;
	r = ks_buf_adds(&kbuild, "obj-m :=");
	for (size_t i = 0; !r && i < n; i++) {
		char *p = ks_strdupf("%s/p%zu.c", kb->dir, i);

		r = p ? write_file(p, sources[i]->p, sources[i]->len) : -ENOMEM;
		r = r ? r : ks_buf_addf(&kbuild, " p%zu.o", i);
		free(p);
	}
	if (!r) {
		char *p = ks_strdupf("%s/Kbuild", kb->dir);

		r = ks_buf_addc(&kbuild, '\n');
		r = r ? r : p ? write_file(p, kbuild.p, kbuild.len) : -ENOMEM;
		free(p);
	}
	kb->n = n;
	ks_buf_free(&kbuild);
	return r;
}

/* In the child: make's output to make.log, messages in plain ASCII
 * (Kbuild drops LC_ALL), no jobserver of a make ksunset runs under. */
static void child(const struct ks_kbuild *kb, char **argv)
{
	char *log = ks_strdupf("%s/make.log", kb->dir);
	int fd = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;

	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(127);
	setenv("LANG", "C", 1);
	setenv("LC_CTYPE", "C", 1);
	setenv("LC_MESSAGES", "C", 1);
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKELEVEL");
	execvp("make", argv);
	_exit(127);
}

int ks_kbuild_make(struct ks_kbuild *kb, const char *kdir, const char *plugin, long jobs)
{
	size_t argc = 0;
	char **argv = calloc(kb->n + 8, sizeof(*argv));
	int r = argv ? 0 : -ENOMEM, status = 0;
	pid_t pid;

	if (!r) {
		argv[argc++] = strdup("make");
		argv[argc++] = ks_strdupf("-C%s", kdir);
		argv[argc++] = ks_strdupf("M=%s", kb->dir);
		argv[argc++] = strdup("-k");
		argv[argc++] = ks_strdupf("-j%ld", jobs > 0 ? jobs : 1);
		argv[argc++] = ks_strdupf("KCFLAGS=-fplugin=%s -fplugin-arg-ksunset-probe", plugin);
		for (size_t i = 0; i < kb->n; i++)
			argv[argc++] = ks_strdupf("p%zu.o", i);
		for (size_t i = 0; i < argc; i++)
			r = argv[i] ? r : -ENOMEM;
	}
	if (!r && (pid = fork()) == 0)
		child(kb, argv);
	if (!r && pid < 0)
		r = -errno;
	if (!r && waitpid(pid, &status, 0) < 0)
		r = -errno;
	kb->status = !r && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	for (size_t i = 0; argv && i < argc; i++)
		free(argv[i]);
	free(argv);
	return r;
}

int ks_kbuild_result(const struct ks_kbuild *kb, size_t i, struct ks_buf *out)
{
	char *p = ks_strdupf("%s/p%zu.probe", kb->dir, i);
	int r = p ? ks_buf_read_file(out, p) : -ENOMEM;

	free(p);
	return r;
}

/* The line of make's output that says best what went wrong, for the
 * note of a probe that did not compile. */
char *ks_kbuild_failure(const struct ks_kbuild *kb)
{
	char *log = ks_strdupf("%s/make.log", kb->dir);
	struct ks_buf b = KS_BUF_INIT;
	char *line = NULL;
	/* a missing compiler first, then the compiler's own words, then make's */
	static const char *const marks[] = { "not found", "No such file", "error:", "***",
					      "Error", "No rule" };

	if (log && ks_buf_read_file(&b, log) == 0 && b.p) {
		for (size_t m = 0; !line && m < sizeof(marks) / sizeof(marks[0]); m++) {
			char *at = strstr(b.p, marks[m]), *start;

			if (!at)
				continue;
			for (start = at; start > b.p && start[-1] != '\n'; start--)
				;
			line = strndup(start, strcspn(start, "\n"));
		}
	}
	if (!line)
		line = ks_strdupf("make exited with status %d and no message", kb->status);
	ks_buf_free(&b);
	free(log);
	return line;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) < 0 ? 0 : 0;
}

/* Removes the scratch folder (a folder left in TMPDIR is no failure of
 * the check), unless KSUNSET_KEEP_PROBE asks to keep it. */
void ks_kbuild_free(struct ks_kbuild *kb)
{
	if (kb->dir && !getenv("KSUNSET_KEEP_PROBE"))
		nftw(kb->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(kb->dir);
	memset(kb, 0, sizeof(*kb));
}
