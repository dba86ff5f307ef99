/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A static armhf program whose user-space instruction count is exact: 2 * N + 4 (the
 * exiting SVC counts at EL0). Build: arm-linux-gnueabihf-gcc -static -nostdlib -DN=1000
 * -o arm-loop1000 scripts/vm/arm-loop.S
 * The loop is a function symbol of its own, hot_loop, for perf report.
 */
	.syntax unified
	.arm
	.global _start
	.type	_start, %function
_start:
	ldr	r0, =N
	.size	_start, . - _start
	.type	hot_loop, %function
hot_loop:
	subs	r0, r0, #1
	bne	hot_loop
	.size	hot_loop, . - hot_loop
	.type	exit, %function
exit:
	mov	r0, #0
	mov	r7, #1		@ __NR_exit
	svc	#0
	.size	exit, . - exit
