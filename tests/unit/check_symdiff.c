/* Two kernels' exports compared (input/symdiff.c), namespaces as the
 * loader decides them (module/namespace.c), and the release a diff's
 * schedule entries are keyed by (input/diffsched.c), and the names a
 * target's headers declare (input/headers.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "input/diffsched.h"
#include "input/headers.h"
#include "input/symdiff.h"
#include "module/namespace.h"

static const struct {
	const char *ns, *mod;
	bool names;
} module_lists[] = {
	{ "module:kvm,kvm-amd,kvm-intel", "kvm", true },
	{ "module:kvm,kvm-amd,kvm-intel", "kvm_amd", true },	/* '-' is '_' */
	{ "module:kvm,kvm-amd,kvm-intel", "kvm_intel", true },
	{ "module:kvm,kvm-amd,kvm-intel", "kvm_amd_x", false },
	{ "module:kvm,kvm-amd,kvm-intel", "kv", false },
	{ "module:kvm,kvm-amd,kvm-intel", "vboxdrv", false },
	{ "module:snd-hda-*", "snd_hda_codec_realtek", true },	/* a glob */
	{ "module:snd-hda-*", "snd_hda_", true },
	{ "module:snd-hda-*", "snd_hd", false },
	{ "module:kvm", "kvm", true },
	{ "module:", "kvm", false },
	{ "KVM", "kvm", false },				/* a string namespace */
};

START_TEST(test_module_list)
{
	bool got = ks_ns_names_module(module_lists[_i].ns, module_lists[_i].mod);

	ck_assert_msg(got == module_lists[_i].names, "'%s' names '%s': got %d", module_lists[_i].ns,
		      module_lists[_i].mod, got);
}
END_TEST

START_TEST(test_admits)
{
	char *ns[] = { "DMA_BUF" };
	struct ks_module m = { .name = "kvm_amd", .import_ns = ns, .nimport_ns = 1 };

	ck_assert(ks_ns_admits("", &m));
	ck_assert(ks_ns_admits("DMA_BUF", &m));
	ck_assert(!ks_ns_admits("CXL", &m));
	ck_assert(ks_ns_admits("module:kvm-amd", &m));
	ck_assert(!ks_ns_admits("module:kvm", &m));
}
END_TEST

static void load(struct ks_symvers *sv, const char *text, char **keep)
{
	struct ks_diags d = { 0 };

	*keep = strdup(text);
	ck_assert_int_eq(ks_symvers_parse(sv, "Module.symvers", *keep, strlen(text), &d), 0);
	ks_diags_free(&d);
}

START_TEST(test_diff)
{
	struct ks_symvers o = { 0 }, n = { 0 };
	struct ks_changes c = { 0 };
	char *a, *b;
	static const struct {
		const char *sym;
		enum ks_change_kind kind;
		bool breaks, removal;
	} want[] = {
		{ "added", KS_CHANGE_ADDED, false, false },
		{ "both", KS_CHANGE_GPL_ONLY, true, false },
		{ "both", KS_CHANGE_NAMESPACE, true, false },
		{ "gone", KS_CHANGE_REMOVED, true, false },
		{ "kvm", KS_CHANGE_NAMESPACE, true, true },
		{ "loose", KS_CHANGE_NO_LONGER_GPL_ONLY, false, false },
		{ "loose", KS_CHANGE_NAMESPACE, false, false },
		{ "moved", KS_CHANGE_OWNER, false, false },
	};

	load(&o, "0x1\tgone\tvmlinux\tEXPORT_SYMBOL\t\n"
		 "0x1\tboth\tvmlinux\tEXPORT_SYMBOL\t\n"
		 "0x1\tkvm\tvmlinux\tEXPORT_SYMBOL_GPL\t\n"
		 "0x1\tloose\tvmlinux\tEXPORT_SYMBOL_GPL\tCXL\n"
		 "0x1\tmoved\tfoo\tEXPORT_SYMBOL\t\n"
		 "0x1\tsame\tvmlinux\tEXPORT_SYMBOL\t\n",
	     &a);
	load(&n, "0x0\tsame\tvmlinux\tEXPORT_SYMBOL\t\n"
		 "0x0\tmoved\tvmlinux\tEXPORT_SYMBOL\t\n"
		 "0x0\tloose\tvmlinux\tEXPORT_SYMBOL\t\n"
		 "0x0\tkvm\tvmlinux\tEXPORT_SYMBOL_GPL\tmodule:kvm\n"
		 "0x0\tboth\tvmlinux\tEXPORT_SYMBOL_GPL\tNS\n"
		 "0x0\tadded\tvmlinux\tEXPORT_SYMBOL\t\n",
	     &b);
	ks_symvers_diff(&o, &n, &c);
	ck_assert_uint_eq(c.n, KS_NCASES(want));
	for (int i = 0; i < KS_NCASES(want); i++) {
		ck_assert_msg(strcmp(c.v[i].symbol, want[i].sym) == 0 && c.v[i].kind == want[i].kind,
			      "change %d: got %s %s, want %s %s", i, c.v[i].symbol,
			      ks_change_name(c.v[i].kind), want[i].sym, ks_change_name(want[i].kind));
		ck_assert_msg(ks_change_breaks(&c.v[i]) == want[i].breaks, "change %d breaks", i);
		ck_assert_msg(ks_change_is_removal(&c.v[i]) == want[i].removal, "change %d removal", i);
	}
	ck_assert_uint_eq(c.count[KS_CHANGE_NAMESPACE], 3);
	ks_changes_free(&c);
	ks_symvers_free(&o);
	ks_symvers_free(&n);
	free(a);
	free(b);
}
END_TEST

static const struct {
	const char *old, *new, *when;	/* when NULL: -EINVAL */
} whens[] = {
	{ "6.12.95+deb12-amd64", "7.3.4+deb13-amd64", "7.3" },
	{ "6.1.0-47-amd64", "6.1.192", "6.1.192" },
	{ NULL, "6.1.0-57-amd64", "6.1.0" },
	{ "6.1.0-47-amd64", "6.1.0-57-amd64", NULL },	/* both 6.1.0 to a schedule */
	{ "7.3-rc2", "7.3", NULL },			/* When has no -rc */
	{ "7.3.4", "7.2", NULL },			/* older */
	{ NULL, "not-a-release", NULL },
};

START_TEST(test_when)
{
	struct ks_diff_releases rel = { whens[_i].old, whens[_i].new };
	const char *why = NULL;
	char out[32];
	int r = ks_diff_when(&rel, out, sizeof(out), &why);

	if (!whens[_i].when) {
		ck_assert_msg(r == -EINVAL && why, "%s -> %s: got %d", rel.old, rel.new, r);
		return;
	}
	ck_assert_msg(r == 0 && strcmp(out, whens[_i].when) == 0, "%s -> %s: got %d '%s'",
		      rel.old, rel.new, r, r ? "" : out);
}
END_TEST

static const struct {
	const char *name;
	unsigned how;
} decls[] = {
	{ "kmalloc", KS_DECL_INLINE },		/* static inline ... *kmalloc(...) { */
	{ "kfree", KS_DECL_PROTO },		/* void kfree(const void *); */
	{ "vmalloc", KS_DECL_MACRO | KS_DECL_PROTO },
	{ "class_create", KS_DECL_PROTO },	/* struct class * __must_check ... */
	{ "ioremap", KS_DECL_PROTO },		/* void __iomem *ioremap(...) */
	{ "__kmalloc_noprof", 0 },		/* only called: "return __kmalloc_noprof(" */
	{ "strlcpy", 0 },			/* only in a comment */
	{ "in_string", 0 },			/* only in a string */
	{ "fn_ptr", 0 },			/* a member: int (*fn_ptr)(void); */
	{ "x_call", 0 },			/* "= x_call(1)" */
	{ "cont", KS_DECL_MACRO },		/* a continued #define */
	{ "if", 0 },
	{ "struct ops", KS_DECL_INLINE },	/* struct ops { ... }; defined */
	{ "struct class", 0 },			/* only named */
	{ "struct fwd", 0 },			/* only declared */
	{ "union u_t", KS_DECL_INLINE },	/* its '{' on the next line */
	{ "ret_fn", KS_DECL_PROTO },		/* struct ret *ret_fn(void); */
	{ "struct ret", 0 },
};

START_TEST(test_headers)
{
	static const char text[] =
		"/* strlcpy() is gone */\n"
		"static __always_inline void *kmalloc(size_t size, gfp_t flags)\n"
		"{\n\treturn __kmalloc_noprof(size, flags);\n}\n"
		"void kfree(const void *);\n"
		"extern void *vmalloc_noprof(unsigned long size);\n"
		"#define vmalloc(...) alloc_hooks(vmalloc_noprof(__VA_ARGS__))\n"
		"void *vmalloc(unsigned long size);\n"
		"struct class * __must_check class_create(const char *name);\n"
		"void __iomem *ioremap(resource_size_t offset, unsigned long size);\n"
		"const char *s = \"in_string(\";\n"
		"struct ops { int (*fn_ptr)(void); };\n"
		"static int y = x_call(1);\n"
		"#if defined(FOO) && \\\n  1\n#endif\n"
		"# define \\\n cont 1\n"
		"#define A if (x) b();\n"
		"struct fwd;\n"
		"union u_t\n{\n\tint a;\n};\n"
		"struct ret *ret_fn(void);\n";
	struct ks_headers h = { .scanned = true };
	unsigned how;

	ks_headers_scan_text(&h, text, strlen(text));
	how = ks_headers_declares(&h, decls[_i].name);
	ck_assert_msg(how == decls[_i].how, "%s: got %u, want %u", decls[_i].name, how,
		      decls[_i].how);
	ks_headers_free(&h);
}
END_TEST

static Suite *suite_symdiff(void)
{
	Suite *s = suite_create("symdiff");
	TCase *tc = tcase_create("symdiff");

	tcase_add_loop_test(tc, test_module_list, 0, KS_NCASES(module_lists));
	tcase_add_test(tc, test_admits);
	tcase_add_test(tc, test_diff);
	tcase_add_loop_test(tc, test_when, 0, KS_NCASES(whens));
	tcase_add_loop_test(tc, test_headers, 0, KS_NCASES(decls));
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_symdiff)
