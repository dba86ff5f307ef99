// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the real AMU system registers behind &struct apmu_amu_regs (SYS_AM* encodings from
 * <asm/sysreg.h>). The counter number is part of the instruction: one case per counter.
 */
#define pr_fmt(fmt) "apmu: amu: " fmt

#include <linux/bitfield.h>
#include <asm/cpufeature.h>
#include <asm/sysreg.h>

#include "amu.h"

/*
 * ARM64_HAS_AMU_EXTN is a "weak local" capability whose match function accepts every CPU
 * once CONFIG_ARM64_AMU_EXTN is set; the kernel's cpu_amu_enable() then uses the AMU only
 * on CPUs whose ID_AA64PFR0_EL1.AMU says it is implemented. The same two tests here: no
 * AMU instruction is ever executed to find out (firmware may trap it, CPTR_EL3.TAM).
 */
static bool amu_sys_kernel_enabled(void)
{
	if (!this_cpu_has_cap(ARM64_HAS_AMU_EXTN))
		return false;
	return FIELD_GET(ID_AA64PFR0_EL1_AMU_MASK, read_sysreg_s(SYS_ID_AA64PFR0_EL1)) != 0;
}

static bool amu_sys_const_broken(void)
{
	return this_cpu_has_cap(ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT);
}

static u64 amu_sys_evcntr0(unsigned int n)
{
	switch (n) {
	case 0:
		return read_sysreg_s(SYS_AMEVCNTR0_EL0(0));
	case 1:
		return read_sysreg_s(SYS_AMEVCNTR0_EL0(1));
	case 2:
		return read_sysreg_s(SYS_AMEVCNTR0_EL0(2));
	case 3:
		return read_sysreg_s(SYS_AMEVCNTR0_EL0(3));
	}
	return 0;
}

static u64 amu_sys_evcntr1(unsigned int n)
{
	switch (n) {
	case 0:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(0));
	case 1:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(1));
	case 2:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(2));
	case 3:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(3));
	case 4:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(4));
	case 5:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(5));
	case 6:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(6));
	case 7:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(7));
	case 8:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(8));
	case 9:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(9));
	case 10:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(10));
	case 11:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(11));
	case 12:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(12));
	case 13:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(13));
	case 14:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(14));
	case 15:
		return read_sysreg_s(SYS_AMEVCNTR1_EL0(15));
	}
	return 0;
}

static u64 amu_sys_evtyper1(unsigned int n)
{
	switch (n) {
	case 0:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(0));
	case 1:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(1));
	case 2:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(2));
	case 3:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(3));
	case 4:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(4));
	case 5:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(5));
	case 6:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(6));
	case 7:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(7));
	case 8:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(8));
	case 9:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(9));
	case 10:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(10));
	case 11:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(11));
	case 12:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(12));
	case 13:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(13));
	case 14:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(14));
	case 15:
		return read_sysreg_s(SYS_AMEVTYPER1_EL0(15));
	}
	return 0;
}

static u64 amu_sys_read(enum apmu_amu_reg reg, unsigned int n)
{
	switch (reg) {
	case APMU_AMU_R_PFR0:
		return read_sysreg_s(SYS_ID_AA64PFR0_EL1);
	case APMU_AMU_R_AMCFGR:
		return read_sysreg_s(SYS_AMCFGR_EL0);
	case APMU_AMU_R_AMCGCR:
		return read_sysreg_s(SYS_AMCGCR_EL0);
	case APMU_AMU_R_CNTENSET0:
		return read_sysreg_s(SYS_AMCNTENSET0_EL0);
	case APMU_AMU_R_CNTENSET1:
		return read_sysreg_s(SYS_AMCNTENSET1_EL0);
	case APMU_AMU_R_EVCNTR0:
		return amu_sys_evcntr0(n);
	case APMU_AMU_R_EVCNTR1:
		return amu_sys_evcntr1(n);
	case APMU_AMU_R_EVTYPER1:
		return amu_sys_evtyper1(n);
	default:
		/* AMCNTENCLR0/1 are never read: their SET twins give the same state */
		return 0;
	}
}

/*
 * Only the group-1 enables are ever written (amu.c checks the highest-EL rule and
 * NCG != 0 first). The ISB makes the new enable state effective before the caller goes on.
 */
static void amu_sys_write(enum apmu_amu_reg reg, unsigned int n, u64 val)
{
	switch (reg) {
	case APMU_AMU_R_CNTENSET1:
		write_sysreg_s(val, SYS_AMCNTENSET1_EL0);
		break;
	case APMU_AMU_R_CNTENCLR1:
		write_sysreg_s(val, SYS_AMCNTENCLR1_EL0);
		break;
	default:
		/* nothing else is written: group-0 enables, counters, AMUSERENR_EL0 */
		return;
	}
	isb();
}

const struct apmu_amu_regs apmu_amu_sysregs = {
	.kernel_enabled = amu_sys_kernel_enabled,
	.const_broken = amu_sys_const_broken,
	.read = amu_sys_read,
	.write = amu_sys_write,
};
