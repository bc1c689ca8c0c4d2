/* Attribute shorthands and C/C++ linkage glue shared by every lib/ header,
 * so that the C++ plugin can include them too. */
#ifndef KS_COMPILER_H
#define KS_COMPILER_H

#define KS_MUST_CHECK __attribute__((warn_unused_result))
#define KS_PRINTF(f, a) __attribute__((format(printf, f, a)))

#ifdef __cplusplus
#define KS_BEGIN_DECLS extern "C" {
#define KS_END_DECLS }
#else
#define KS_BEGIN_DECLS
#define KS_END_DECLS
#endif

#endif
