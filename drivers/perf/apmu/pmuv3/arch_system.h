/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: what the PMUv3 backend asks of the system once at probe, on the probing CPU, the
 * same on arm64 and arm: its MIDR, the machine's root compatible and whether KVM runs
 * it (pmuv3_quirks()),
 * and whether its core runs several threads (the PMCCNTR rule). The KUnit module gives
 * its own (tests/pmuv3_model_access.h).
 */
#ifndef __APMU_PMUV3_ARCH_SYSTEM_H
#define __APMU_PMUV3_ARCH_SYSTEM_H

#include <linux/arm-smccc.h>
#include <linux/of.h>
#include <linux/smp.h>
#include <asm/cputype.h>
#ifdef CONFIG_ARM64
#include <asm/hypervisor.h>
#endif

#include "../compat.h"

static inline u32 apmu_pmuv3_midr(void)
{
	return read_cpuid_id();
}

static inline bool apmu_pmuv3_machine_is(const char *compat)
{
	return of_machine_is_compatible(compat);
}

/* A KVM guest: KVM's vendor hypervisor services answered at boot (arm64) */
static inline bool apmu_pmuv3_kvm_guest(void)
{
#if defined(CONFIG_ARM64) && defined(CONFIG_HAVE_ARM_SMCCC_DISCOVERY)
	return kvm_arm_hyp_service_available(ARM_SMCCC_KVM_FUNC_FEATURES);
#else
	return false;
#endif
}

/* SMT is what the firmware's topology says (DT cpu-map threads, ACPI PPTT), as in-tree */
static inline bool apmu_pmuv3_core_has_smt(void)
{
	return topology_core_has_smt(smp_processor_id());
}

#endif /* __APMU_PMUV3_ARCH_SYSTEM_H */
