/* Attribute shorthands and C/C++ linkage glue shared by every lib/ header,
 * so that the C++ plugin can include them too. */
#ifndef KS_COMPILER_H
#define KS_COMPILER_H

#define KS_MUST_CHECK __attribute__((warn_unused_result))
#define KS_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* The number of elements of array a; a pointer does not compile (C). */
#ifdef __cplusplus
#define KS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#else
#define KS_ARRAY_SIZE(a)                                                                       \
	(sizeof(a) / sizeof((a)[0]) +                                                          \
	 0 * sizeof(struct {                                                                   \
		 int : -__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0]));      \
	 }))
#endif

#ifdef __cplusplus
#define KS_BEGIN_DECLS extern "C" {
#define KS_END_DECLS }
#else
#define KS_BEGIN_DECLS
#define KS_END_DECLS
#endif

#endif
