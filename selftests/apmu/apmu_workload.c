// SPDX-License-Identifier: GPL-2.0
/*
 * A workload of known shape for demos and tests: hot_loop() retires exactly
 * 2 * iterations instructions (subs, b.ne), so perf counts and profiles are predictable.
 *
 *   apmu_workload [iterations]    (default 50000000)
 */
#include <stdio.h>
#include <stdlib.h>

void __attribute__((noinline)) hot_loop(unsigned long n)
{
#ifdef __aarch64__
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
#else	/* 32-bit Arm: subs, bne */
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	bne	1b\n" : "+r" (n) : : "cc");
#endif
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000000UL;

	if (!n)
		n = 1;
	hot_loop(n);
	printf("apmu_workload: %lu iterations, %lu loop instructions\n", n, 2 * n);
	return 0;
}
