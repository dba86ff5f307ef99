/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A static armhf program whose user-space instruction count is exact: 2 * N + 4 (the
 * exiting SVC counts at EL0). Build: arm-linux-gnueabihf-gcc -static -nostdlib -DN=1000
 * -o arm-loop1000 scripts/vm/arm-loop.S
 */
	.syntax unified
	.arm
	.global _start
_start:
	ldr	r0, =N
1:	subs	r0, r0, #1
	bne	1b
	mov	r0, #0
	mov	r7, #1		@ __NR_exit
	svc	#0
