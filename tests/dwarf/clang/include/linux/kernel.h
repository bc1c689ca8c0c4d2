/* A stand-in for a kernel tree's header (the tree is recognised by arch/,
 * scripts/ and this file): the wrapper's frame is the kernel's. */
void __wrapped_call(int);
static inline void wrapped_call(int x)
{
	__wrapped_call(x + 1);
}
