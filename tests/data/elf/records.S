/* An object with plugin records written by hand: two good uses of
 * do_settimeofday64, a third accepted in the source, and one of
 * simple_strtoul. Built by the tests with
 * "cc -c records.S"; with -DKS_BAD_RECORD the third record is malformed. */
	.text
	.globl	f
f:
	call	do_settimeofday64
	call	simple_strtoul
	ret

	.section .modinfo,"a"
	.asciz	"license=GPL"
	.asciz	"name=records"
	.asciz	"vermagic=6.1.0-57-amd64 SMP preempt mod_unload modversions "

	.section .note.ksunset,"",@note
	.balign	4
	.long	8
	.long	2f - 1f
	.long	0x4b53
	.asciz	"ksunset"
1:	.asciz	"ksunset 1\tunit\trecords.c\t0123456789abcdef\t12.2.0"
	.asciz	"ksunset 1\tuse\tdo_settimeofday64\tcall\tdrv/records.c\t10\t9\tf\t2027-09-01"
#ifdef KS_BAD_RECORD
	.asciz	"ksunset 1\tuse\tdo_settimeofday64\tjump\tdrv/records.c\t20\t16\t\t2027-09-01"
#else
	.asciz	"ksunset 1\tuse\tdo_settimeofday64\taddr\tdrv/records.c\t20\t16\t\t2027-09-01"
#endif
	.asciz	"ksunset 1\tuse\tsimple_strtoul\tcall\tdrv/records.c\t12\t5\tf\t2026-12-20"
	.asciz	"ksunset 2\tuse\tdo_settimeofday64\tcall\tdrv/records.c\t14\t9\tf\t2027-09-01\tno RTC\\tdriver"
	.asciz	"ksunset 1\tuse\tnot_imported\tcall\tdrv/records.c\t30\t5\tf\t2026-12-20"
	.asciz	"ksunset 9\tfuture\tformat"
2:	.balign	4
