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

#include "alloc.h"
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

/* What a probe's results depend on besides its source and the headers
 * it read: the target (its folder, configuration and exports) and the
 * plugin that answers. */
static uint64_t target_key(const char *kdir, const char *plugin)
{
	static const char *const files[] = { "Module.symvers", ".config", "Makefile",
					     "include/generated/utsrelease.h" };
	char *real = realpath(kdir, NULL);
	uint64_t h = ks_hash_bytes(KS_VERSION, sizeof(KS_VERSION), 0x6b6275696c64);

	h = ks_hash_bytes(real ? real : kdir, strlen(real ? real : kdir), h);
	for (size_t i = 0; i < KS_ARRAY_SIZE(files); i++) {
		char *p = ks_strdupf("%s/%s", kdir, files[i]);

		h = hash_stat(h, p);
		free(p);
	}
	free(real);
	return plugin ? hash_stat(h, plugin) : h;
}

void ks_kcache_open(struct ks_kcache *c, const char *cache, const char *kdir, const char *plugin)
{
	memset(c, 0, sizeof(*c));
	if (!cache)
		return;
	c->dir = ks_strdupf("%s/%016llx", cache, (unsigned long long)target_key(kdir, plugin));
	mkdir(c->dir, 0755);
}

/* "SIZE MTIME" of file as it is now ("-" none), asked once a run. */
static const char *stamp(struct ks_kcache *c, const char *file)
{
	struct stat st;
	void **slot;
	char *key;

	if ((key = ks_strmap_get(&c->stamps, file)))
		return key + strlen(key) + 1;
	key = stat(file, &st) ? ks_strdupf("%s%c-", file, 0)
			      : ks_strdupf("%s%c%lld %lld.%09ld", file, 0, (long long)st.st_size,
					   (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	ks_strmap_put(&c->stamps, key, &slot);
	*slot = key;	/* the key's block: freed with the map */
	return key + strlen(key) + 1;
}

static char *cache_file(const struct ks_kcache *c, uint64_t hash, const char *ext)
{
	return c->dir ? ks_strdupf("%s/%016llx.%s", c->dir, (unsigned long long)hash, ext) : NULL;
}

/* Whether every file of deps ("FILE\tSTAMP" lines) is as it was. */
static bool deps_hold(struct ks_kcache *c, char *deps)
{
	for (char *line = deps, *next; line && *line; line = next) {
		char *tab = strchr(line, '\t');

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!tab)
			return false;
		*tab = '\0';
		if (strcmp(stamp(c, line), tab + 1))
			return false;
	}
	return true;
}

bool ks_kcache_get(struct ks_kcache *c, uint64_t hash, struct ks_buf *out)
{
	char *res = cache_file(c, hash, "probe"), *dep = cache_file(c, hash, "deps");
	struct ks_buf deps = KS_BUF_INIT;
	int r = res && dep ? ks_buf_read_file(&deps, dep) : -ENOENT;

	if (!r)
		r = deps_hold(c, deps.p ? deps.p : "") ? ks_buf_read_file(out, res) : -ENOENT;
	ks_buf_free(&deps);
	free(res);
	free(dep);
	return !r;
}

/* "FILE\tSTAMP" for each file the results say the probe read. */
static void deps_of(struct ks_kcache *c, const struct ks_buf *res, struct ks_buf *deps)
{
	for (size_t off = 0; off < res->len;) {
		size_t n = strnlen(res->p + off, res->len - off);
		struct ks_record rec;
		const char *why;

		if (n && !ks_record_decode(res->p + off, n, &rec, &why) && rec.type == KS_REC_FACT &&
		    rec.fact.status == KS_FACT_FILE)
			ks_buf_addf(deps, "%s\t%s\n", rec.fact.file, stamp(c, rec.fact.file));
		if (n)
			ks_record_free(&rec);
		off += n + 1;
	}
}

static int write_file(const char *path, const char *text, size_t len);

/* Written whole or not at all: under a temporary name, then renamed. */
static void keep_file(const char *path, const struct ks_buf *b)
{
	char *tmp = path ? ks_strdupf("%s.%ld.tmp", path, (long)getpid()) : NULL;

	if (tmp && (write_file(tmp, b->p ? b->p : "", b->len) || rename(tmp, path) < 0))
		unlink(tmp);
	free(tmp);
}

void ks_kcache_put(struct ks_kcache *c, uint64_t hash, const struct ks_buf *res)
{
	char *p = cache_file(c, hash, "probe"), *d = cache_file(c, hash, "deps");
	struct ks_buf deps = KS_BUF_INIT;

	/* the results before the files they hold for: a reader that finds
	 * the new files list finds the new results */
	if (p && d) {
		deps_of(c, res, &deps);
		keep_file(p, res);
		keep_file(d, &deps);
	}
	ks_buf_free(&deps);
	free(p);
	free(d);
}

void ks_kcache_close(struct ks_kcache *c)
{
	for (size_t i = 0; i < c->stamps.cap; i++)
		free((char *)c->stamps.slots[i].key);
	ks_strmap_free(&c->stamps);
	free(c->dir);
	memset(c, 0, sizeof(*c));
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
	int r = 0;

	kb->dir = ks_strdupf("%s/ksunset-probe.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(kb->dir))
		return -errno;
	ks_buf_adds(&kbuild, "obj-m :=");
	for (size_t i = 0; !r && i < n; i++) {
		char *p = ks_strdupf("%s/p%zu.c", kb->dir, i);

		r = write_file(p, sources[i]->p, sources[i]->len);
		ks_buf_addf(&kbuild, " p%zu.o", i);
		free(p);
	}
	if (!r) {
		char *p = ks_strdupf("%s/Kbuild", kb->dir);

		ks_buf_addc(&kbuild, '\n');
		r = write_file(p, kbuild.p, kbuild.len);
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
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

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
	char **argv = ks_xcalloc(kb->n + 8, sizeof(*argv));
	int r = 0, status = 0;
	pid_t pid;

	argv[argc++] = ks_xstrdup("make");
	argv[argc++] = ks_strdupf("-C%s", kdir);
	argv[argc++] = ks_strdupf("M=%s", kb->dir);
	argv[argc++] = ks_xstrdup("-k");
	argv[argc++] = ks_strdupf("-j%ld", jobs > 0 ? jobs : 1);
	argv[argc++] = ks_strdupf("KCFLAGS=-fplugin=%s -fplugin-arg-ksunset-probe", plugin);
	for (size_t i = 0; i < kb->n; i++)
		argv[argc++] = ks_strdupf("p%zu.o", i);
	if ((pid = fork()) == 0)
		child(kb, argv);
	if (pid < 0)
		r = -errno;
	if (!r && waitpid(pid, &status, 0) < 0)
		r = -errno;
	kb->status = !r && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	for (size_t i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	return r;
}

int ks_kbuild_result(const struct ks_kbuild *kb, size_t i, struct ks_buf *out)
{
	char *p = ks_strdupf("%s/p%zu.probe", kb->dir, i);
	int r = ks_buf_read_file(out, p);

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

	if (ks_buf_read_file(&b, log) == 0 && b.p) {
		for (size_t m = 0; !line && m < KS_ARRAY_SIZE(marks); m++) {
			char *at = strstr(b.p, marks[m]), *start;

			if (!at)
				continue;
			for (start = at; start > b.p && start[-1] != '\n'; start--)
				;
			line = ks_xstrndup(start, strcspn(start, "\n"));
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
