/* Declared names of a kernel's headers, found by a tokenizer that skips
 * comments and literals and takes "#define NAME" and "TYPE NAME(" (with
 * '*' allowed between): prototypes and inline definitions. A call inside
 * an inline body ("return foo(", "= foo(") is not a declaration. */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "array.h"
#include "buf.h"
#include "input/headers.h"

static void add_real_root(struct ks_headers *h, const char *dir)
{
	char *inc = ks_strdupf("%s/include", dir);
	struct stat st;
	bool ok = stat(inc, &st) == 0 && S_ISDIR(st.st_mode);

	free(inc);
	if (!ok)
		return;
	inc = ks_strdupf("%s/include/linux/module.h", dir);
	h->complete |= stat(inc, &st) == 0;
	free(inc);
	ks_strv_add(&h->roots, &h->nroots, dir);
}

/* A folder holding include/, by its real path: a symlinked include/ or
 * tree is walked like any other. */
static void add_root(struct ks_headers *h, const char *given)
{
	char *dir = realpath(given, NULL);

	if (!dir && errno == ENOMEM)
		ks_nomem();
	if (!dir)
		return;
	add_real_root(h, dir);
	free(dir);
}

/* Debian's linux-headers-*-ARCH holds the generated headers; its Makefile
 * includes the -common tree with the rest ("include /usr/src/...-common/
 * Makefile": the first line up to Debian 12, after "KBUILD_OUTPUT=..." in
 * Debian 13's). */
static char *included_tree(const char *dir)
{
	char *mk = ks_strdupf("%s/Makefile", dir), *tree = NULL;
	struct ks_buf b = KS_BUF_INIT;

	if (ks_buf_read_file(&b, mk) == 0 && b.p) {
		for (const char *p = b.p; p && *p && !tree; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			size_t n = strcspn(p, "\n");

			if (n > 18 && !strncmp(p, "include /", 9) && !strncmp(p + n - 9, "/Makefile", 9))
				tree = ks_xstrndup(p + 8, n - 17);
		}
	}
	ks_buf_free(&b);
	free(mk);
	return tree;
}

void ks_headers_open(struct ks_headers *h, const char *dir)
{
	char *common;

	h->cur_file = -1;
	if (!dir)
		return;
	add_root(h, dir);
	common = included_tree(dir);
	if (common)
		add_root(h, common);
	free(common);
}

bool ks_headers_present(const struct ks_headers *h)
{
	return h->complete;
}

/* A header, as it is included; it becomes the file being scanned. */
static void add_file(struct ks_headers *h, const char *rel)
{
	ks_array_room((void **)&h->incs, &h->capincs, h->nincs + 1, sizeof(*h->incs));
	h->incs[h->nincs] = ks_xstrdup(rel);
	h->cur_file = (long)h->nincs++;
}

static void add_name(struct ks_headers *h, const char *s, size_t n, unsigned how)
{
	void **slot;
	char *key;

	key = ks_xstrndup(s, n);
	ks_array_room((void **)&h->keys, &h->capkeys, h->nkeys + 1, sizeof(*h->keys));
	if (!ks_strmap_put(&h->names, key, &slot)) {
		*slot = (void *)((uintptr_t)*slot | how);
		free(key);
		return;
	}
	*slot = (void *)((uintptr_t)how | (uintptr_t)(h->cur_file + 1) << 3);
	h->keys[h->nkeys++] = key;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Words that may stand before "NAME(" without declaring it. */
static bool not_a_type(const char *s, size_t n)
{
	static const char *const words[] = { "return", "if", "while", "for", "switch",
					     "sizeof", "else", "do", "case", "typeof",
					     "__typeof__", "defined", "_Generic", "goto" };

	for (size_t i = 0; i < KS_ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !strncmp(words[i], s, n))
			return true;
	return false;
}

/* What came before the current token, for telling "TYPE NAME(" apart. */
enum prev {
	PREV_OTHER,		/* punctuation, a keyword, or nothing */
	PREV_TYPE,		/* an identifier that may be a type */
	PREV_STAR,		/* '*' after a type: "void *kmalloc(" */
};

struct tok {
	enum prev prev;
	const char *tag;	/* "struct" or "union" just before; NULL */
	bool line_start;	/* only white space so far on this line */
	bool directive;		/* the line began with '#' */
	bool define;		/* the next identifier is a macro's name */
};

/* Skips a comment or literal at p; the position after it, or p. */
static const char *skip_blank(const char *p, const char *end)
{
	if (p + 1 < end && p[0] == '/' && p[1] == '*') {
		const char *q = p + 2;

		while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
			q++;
		return q + 1 < end ? q + 2 : end;
	}
	if (p + 1 < end && p[0] == '/' && p[1] == '/') {
		while (p < end && *p != '\n')
			p++;
		return p;
	}
	if (*p == '"' || *p == '\'') {
		const char *q = p + 1;

		while (q < end && *q != *p && *q != '\n')
			q += *q == '\\' ? 2 : 1;
		return q < end ? q + 1 : end;
	}
	return p;
}

/* Whether the parameter list at p ('(') is followed by a body: skips to
 * the matching ')', then attributes and white space, to '{' or ';'. */
static bool body_follows(const char *p, const char *end)
{
	int depth = 0;

	for (; p < end; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			break;
	}
	for (p++; p < end; p++) {
		if (*p == '{')
			return true;
		if (*p == ';' || *p == '=' || *p == ',')
			return false;
	}
	return false;
}

static void identifier(struct ks_headers *h, struct tok *t, const char *s, size_t n,
		       const char *end)
{
	const char *q = s + n;

	if (t->define) {
		add_name(h, s, n, KS_DECL_MACRO);
	} else if (t->tag && !t->directive) {
		/* "struct NAME {": the aggregate's definition */
		while (q < end && isspace((unsigned char)*q))
			q++;
		if (q < end && *q == '{') {
			char *key = ks_strdupf("%s %.*s", t->tag, (int)n, s);

			add_name(h, key, strlen(key), KS_DECL_INLINE);
			free(key);
		}
	} else if (!t->directive && t->prev != PREV_OTHER && !not_a_type(s, n)) {
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < end && *q == '(')
			add_name(h, s, n, body_follows(q, end) ? KS_DECL_INLINE : KS_DECL_PROTO);
	}
	t->define = t->directive && n == 6 && !strncmp(s, "define", 6);
	t->tag = n == 6 && !strncmp(s, "struct", 6) ? "struct"
		 : n == 5 && !strncmp(s, "union", 5) ? "union"
						      : NULL;
	t->directive = false;
	t->prev = not_a_type(s, n) ? PREV_OTHER : PREV_TYPE;
}

static void punctuation(struct tok *t, char c)
{
	t->directive = t->line_start && c == '#';
	t->define = false;
	t->tag = NULL;
	t->prev = c == '*' && t->prev != PREV_OTHER ? PREV_STAR : PREV_OTHER;
}

void ks_headers_scan_text(struct ks_headers *h, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	struct tok t = { .line_start = true };

	while (p < end) {
		const char *q = skip_blank(p, end);

		if (q != p) {
			p = q;
			continue;
		}
		if (ident_char(*p) && !isdigit((unsigned char)*p)) {
			for (q = p; q < end && ident_char(*q); q++)
				;
			identifier(h, &t, p, (size_t)(q - p), end);
			p = q;
		} else if (isdigit((unsigned char)*p)) {
			while (p < end && ident_char(*p))
				p++;
			t.prev = PREV_OTHER;
		} else if (*p == '\n') {
			/* a directive ends with its line, unless continued */
			if (p == text || p[-1] != '\\')
				t.directive = t.define = false;
			p++;
			t.line_start = true;
			continue;
		} else if (isspace((unsigned char)*p) || *p == '\\') {
			p++;
			continue;
		} else {
			punctuation(&t, *p++);
		}
		t.line_start = false;
	}
}

/* nftw() has no context argument: the scan in progress, the length of
 * the tree's path (include/ or arch/x86/include/), and for the key of the
 * cache, the hash of every header's path, size and time. */
static struct ks_headers *scanning;
static size_t tree_len;
static uint64_t tree_hash;

/* As it is included: "include/uapi/linux/fs.h" and
 * "arch/x86/include/generated/asm/foo.h" are <linux/fs.h> and <asm/foo.h>. */
static const char *as_included(const char *path)
{
	const char *rel = path + tree_len + 1;

	if (!strncmp(rel, "generated/", 10))
		rel += 10;
	if (!strncmp(rel, "uapi/", 5))
		rel += 5;
	return rel;
}

static bool is_header(const char *path, const struct stat *st, int type)
{
	size_t n = strlen(path);

	return type == FTW_F && S_ISREG(st->st_mode) && n > tree_len + 3 &&
	       !strcmp(path + n - 2, ".h");
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	struct ks_buf b = KS_BUF_INIT;

	(void)ftw;
	if (!is_header(path, st, type))
		return 0;
	add_file(scanning, as_included(path));
	if (ks_buf_read_file(&b, path) == 0 && b.p) {
		scanning->files++;
		ks_headers_scan_text(scanning, b.p, b.len);
	}
	scanning->cur_file = -1;
	ks_buf_free(&b);
	return 0;
}

static int stamp(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (is_header(path, st, type)) {
		tree_hash = ks_hash_bytes(path, strlen(path) + 1, tree_hash);
		tree_hash = ks_hash_bytes(&st->st_size, sizeof(st->st_size), tree_hash);
		tree_hash = ks_hash_bytes(&st->st_mtim, sizeof(st->st_mtim), tree_hash);
	}
	return 0;
}

/* Walks include/ and arch/x86/include/ of every root with fn. */
static void walk_trees(struct ks_headers *h,
		       int (*fn)(const char *, const struct stat *, int, struct FTW *))
{
	static const char *const trees[] = { "include", "arch/x86/include" };

	scanning = h;
	for (size_t i = 0; i < h->nroots; i++)
		for (size_t j = 0; j < KS_ARRAY_SIZE(trees); j++) {
			char *dir = ks_strdupf("%s/%s", h->roots[i], trees[j]);
			/* a symbolic link to the tree (absolute or relative)
			 * is followed; links inside it are not */
			char *real = realpath(dir, NULL);

			if (real) {
				tree_len = strlen(real);
				nftw(real, fn, 16, FTW_PHYS);
			}
			free(real);
			free(dir);
		}
	scanning = NULL;
}


char *ks_cache_dir(const char *sub)
{
	const char *base = getenv("KSUNSET_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *dir, *path;

	if (base && *base)
		dir = ks_strdupf("%s", base);
	else if (xdg && *xdg)
		dir = ks_strdupf("%s/ksunset", xdg);
	else if (home && *home)
		dir = ks_strdupf("%s/.cache/ksunset", home);
	else
		return NULL;
	mkdir(dir, 0755);	/* its parent exists in all but odd setups */
	path = ks_strdupf("%s/%s", dir, sub);
	free(dir);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		free(path);
		return NULL;
	}
	return path;
}

/* The scan is kept in a cache file, ks_cache_dir("headers"), named by a
 * hash of what it depends on: the roots' paths and every header's path,
 * size and time. NULL: none. */
static char *cache_path(struct ks_headers *h)
{
	char *dir, *path;

	tree_hash = 0x6b73756e736574;	/* "ksunset" */
	for (size_t i = 0; i < h->nroots; i++)
		tree_hash = ks_hash_bytes(h->roots[i], strlen(h->roots[i]) + 1, tree_hash);
	walk_trees(h, stamp);
	dir = ks_cache_dir("headers");
	if (!dir)
		return NULL;
	path = ks_strdupf("%s/headers-%016llx.names", dir, (unsigned long long)tree_hash);
	free(dir);
	return path;
}

/* One line of a cache file: "F HEADER" or "BITS FILE NAME". */
static int cache_line(struct ks_headers *h, char *p, char *nl)
{
	char *name, *end;
	unsigned long file;

	*nl = '\0';
	if (p[0] == 'F' && p[1] == ' ' && p[2]) {
		add_file(h, p + 2);
		return 0;
	}
	if (p[0] < '1' || p[0] > '7' || p[1] != ' ')
		return -EINVAL;
	file = strtoul(p + 2, &end, 10);
	if (end == p + 2 || *end != ' ' || file > h->nincs || !*(name = end + 1))
		return -EINVAL;
	h->cur_file = (long)file - 1;
	add_name(h, name, (size_t)(nl - name), (unsigned)(p[0] - '0'));
	return 0;
}

/* A cache file: "ksunset-headers 3", then the headers and the names. 0
 * when read whole; anything unexpected is a miss (and the headers are
 * scanned). */
static int cache_read(struct ks_headers *h, const char *path)
{
	struct ks_buf b = KS_BUF_INIT;
	const char magic[] = "ksunset-headers 3\n";
	int r = -ENOENT;

	if (ks_buf_read_file(&b, path) == 0 && b.p && !strncmp(b.p, magic, sizeof(magic) - 1)) {
		char *p = b.p + sizeof(magic) - 1;

		r = 0;
		while (!r && *p) {
			char *nl = strchr(p, '\n');

			r = nl ? cache_line(h, p, nl) : -EINVAL;
			p = nl ? nl + 1 : p;
		}
	}
	h->cur_file = -1;
	ks_buf_free(&b);
	return r;
}

/* Best effort: a cache that cannot be written only costs the next run. */
static void cache_write(const struct ks_headers *h, const char *path)
{
	char *tmp = ks_strdupf("%s.%ld.tmp", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	bool ok = f != NULL;

	if (ok) {
		fputs("ksunset-headers 3\n", f);
		for (size_t i = 0; i < h->nincs; i++)
			fprintf(f, "F %s\n", h->incs[i]);
		for (size_t i = 0; i < h->nkeys; i++) {
			uintptr_t v = (uintptr_t)ks_strmap_get(&h->names, h->keys[i]);

			fprintf(f, "%u %lu %s\n", (unsigned)(v & 7), (unsigned long)(v >> 3),
				h->keys[i]);
		}
		ok = fclose(f) == 0;
	}
	if (!ok || rename(tmp, path) < 0)
		unlink(tmp);
	free(tmp);
}

static void forget(struct ks_headers *h)
{
	for (size_t i = 0; i < h->nkeys; i++)
		free(h->keys[i]);
	h->nkeys = 0;
	ks_strmap_free(&h->names);
	for (size_t i = 0; i < h->nincs; i++)
		free(h->incs[i]);
	h->nincs = 0;
	h->cur_file = -1;
}

static void scan(struct ks_headers *h)
{
	char *path = cache_path(h);

	h->scanned = true;
	if (path && cache_read(h, path) == 0) {
		free(path);
		return;
	}
	forget(h);
	walk_trees(h, visit);
	if (path)
		cache_write(h, path);
	free(path);
}

unsigned ks_headers_declares(struct ks_headers *h, const char *name)
{
	if (!h->scanned)
		scan(h);
	return (unsigned)((uintptr_t)ks_strmap_get(&h->names, name) & 7);
}

const char *ks_headers_where(struct ks_headers *h, const char *name)
{
	uintptr_t v;

	if (!h->scanned)
		scan(h);
	v = (uintptr_t)ks_strmap_get(&h->names, name) >> 3;
	return v && v <= h->nincs ? h->incs[v - 1] : NULL;
}

char *ks_headers_find_file(struct ks_headers *h, const char *base, const char *written)
{
	size_t wn = strlen(written);
	const char *best = NULL;

	if (!h->scanned)
		scan(h);
	for (size_t i = 0; i < h->nincs; i++) {
		const char *f = h->incs[i], *slash = strrchr(f, '/');
		size_t fn = strlen(f);

		if (strcmp(slash ? slash + 1 : f, base) ||
		    (wn == fn + 2 && !strncmp(written + 1, f, fn)))
			continue;
		if (!best || (!strncmp(f, "linux/", 6) && strncmp(best, "linux/", 6)))
			best = f;
	}
	return best ? ks_xstrdup(best) : NULL;
}

void ks_headers_free(struct ks_headers *h)
{
	for (size_t i = 0; i < h->nroots; i++)
		free(h->roots[i]);
	free(h->roots);
	forget(h);
	free(h->keys);
	free(h->incs);
	memset(h, 0, sizeof(*h));
}
