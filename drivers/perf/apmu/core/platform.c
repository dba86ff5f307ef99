// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the overflow interrupt, from the device tree to each CPU.
 *
 * A PMU node has either one per-CPU interrupt (a PPI, whose partition may name the CPUs
 * of one microarchitecture) or one SPI per CPU, each tied to its CPU by the
 * "interrupt-affinity" phandle list (or, without it, by position). An SPI is routed to
 * its CPU when requested (probe fails if it cannot be) and enabled only while that CPU is
 * online.
 *
 * Without an interrupt (none in the node, or the overflow_irq=0 parameter) apmu counts
 * only: sampling is refused, and each CPU's fold timer keeps 32-bit counters exact
 * (core.c, apmu_fold_timer()).
 */
#define pr_fmt(fmt) "apmu: " fmt

#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/moduleparam.h>
#include <linux/of.h>
#include <linux/platform_device.h>

#include "../apmu.h"
#include "../compat.h"

static bool overflow_irq = true;
module_param(overflow_irq, bool, 0444);
MODULE_PARM_DESC(overflow_irq,
		 "use the PMU's overflow interrupt (default Y; N: as if the DT had none: counting only, 32-bit counters folded by a per-CPU timer every 20 ms)");

static int apmu_irq_parse_ppi(struct platform_device *pdev, struct apmu_pmu *pmu, int irq)
{
	/* On heterogeneous systems the PPI's affinity names this PMU's CPUs */
	if (apmu_compat_ppi_affinity(pdev, irq, &pmu->supported_cpus) ||
	    cpumask_empty(&pmu->supported_cpus))
		cpumask_copy(&pmu->supported_cpus, cpu_possible_mask);
	pmu->irq = irq;
	pmu->irq_percpu = true;
	pmu->has_irq = true;
	return 0;
}

/* The CPU SPI number @i belongs to: "interrupt-affinity", else its position. */
static int apmu_irq_cpu(struct device *dev, int i, bool has_affinity)
{
	struct device_node *cpu_dn;
	int cpu;

	if (!has_affinity)
		return i < nr_cpu_ids ? i : -EINVAL;
	cpu_dn = of_parse_phandle(dev->of_node, "interrupt-affinity", i);
	if (!cpu_dn)
		return -EINVAL;
	cpu = of_cpu_node_to_id(cpu_dn);
	of_node_put(cpu_dn);
	return cpu;
}

static int apmu_irq_parse_dt(struct platform_device *pdev, struct apmu_pmu *pmu)
{
	struct device *dev = &pdev->dev;
	bool has_affinity = of_property_present(dev->of_node, "interrupt-affinity");
	int n, i, irq, cpu;

	n = platform_irq_count(pdev);
	if (n <= 0) {
		cpumask_copy(&pmu->supported_cpus, cpu_possible_mask);
		return 0;
	}

	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;
	if (n == 1 && irq_is_percpu_devid(irq))
		return apmu_irq_parse_ppi(pdev, pmu, irq);

	if (!has_affinity && n > 1)
		dev_warn(dev, "no interrupt-affinity property: SPI n taken as CPU n\n");
	for (i = 0; i < n; i++) {
		irq = platform_get_irq(pdev, i);
		if (irq < 0)
			return irq;
		if (irq_is_percpu_devid(irq)) {
			dev_err(dev, "interrupt %d mixes a PPI with SPIs\n", i);
			return -EINVAL;
		}
		cpu = apmu_irq_cpu(dev, i, has_affinity);
		if (cpu < 0 || !cpu_possible(cpu)) {
			dev_warn(dev, "interrupt %d: no possible CPU for it, ignored\n", i);
			continue;
		}
		if (per_cpu_ptr(pmu->hw, cpu)->irq) {
			dev_err(dev, "two interrupts for CPU%d\n", cpu);
			return -EINVAL;
		}
		per_cpu_ptr(pmu->hw, cpu)->irq = irq;
		cpumask_set_cpu(cpu, &pmu->supported_cpus);
	}
	if (cpumask_empty(&pmu->supported_cpus))
		return dev_err_probe(dev, -EINVAL, "no CPU has an overflow interrupt\n");
	pmu->has_irq = true;
	return 0;
}

/**
 * apmu_irq_parse() - find the overflow interrupt(s) and this PMU's CPUs
 * @pdev: the PMU node's device
 * @pmu: instance; @hw must be allocated (SPIs are recorded per CPU)
 *
 * With overflow_irq=0 the interrupts are still parsed, since they name the PMU's CPUs
 * (a PPI partition, interrupt-affinity), then forgotten: the PMU is driven exactly as
 * one whose node has none.
 *
 * Return: 0, or a negative errno for a description that cannot work.
 */
int apmu_irq_parse(struct platform_device *pdev, struct apmu_pmu *pmu)
{
	unsigned int cpu;
	int ret;

	ret = apmu_irq_parse_dt(pdev, pmu);
	if (ret)
		return ret;
	if (pmu->has_irq && !overflow_irq) {
		pmu->irq = 0;
		pmu->irq_percpu = false;
		pmu->has_irq = false;
		for_each_possible_cpu(cpu)
			per_cpu_ptr(pmu->hw, cpu)->irq = 0;
		dev_info(&pdev->dev, "overflow_irq=0: overflow interrupt not used\n");
	}
	if (!pmu->has_irq)
		dev_info(&pdev->dev, "no overflow interrupt: counting only (sampling refused), 32-bit counters folded by a per-CPU timer\n");
	return 0;
}

/**
 * apmu_irq_request() - request the overflow interrupt(s), left disabled
 * @pmu: instance
 *
 * Each CPU's interrupt is enabled by apmu_irq_cpu_online(). The handler's dev_id is the
 * CPU's &struct apmu_cpu.
 *
 * Return: 0, or the errno of the failed request (nothing is left requested).
 */
int apmu_irq_request(struct apmu_pmu *pmu)
{
	unsigned int cpu;
	int ret;

	if (!pmu->has_irq)
		return 0;
	if (pmu->irq_percpu) {
		ret = request_percpu_irq_affinity(pmu->irq, apmu_handle_irq, "apmu",
						  &pmu->supported_cpus, pmu->hw);
		if (ret)
			dev_err(pmu->dev, "cannot request PMU PPI %d: %pe\n", pmu->irq,
				ERR_PTR(ret));
		return ret;
	}
	for_each_cpu(cpu, &pmu->supported_cpus) {
		struct apmu_cpu *c = per_cpu_ptr(pmu->hw, cpu);

		/*
		 * The SPI must reach its own CPU only: the handler reads that CPU's overflow
		 * flags and events. IRQF_PERCPU keeps the interrupt core from moving it to
		 * another CPU when its CPU goes offline; it is disabled then instead.
		 */
		ret = irq_force_affinity(c->irq, cpumask_of(cpu));
		if (ret && num_possible_cpus() > 1) {
			dev_err(pmu->dev, "cannot route PMU SPI %d to CPU%u: %pe\n", c->irq,
				cpu, ERR_PTR(ret));
			apmu_irq_free(pmu);
			return ret;
		}
		ret = request_irq(c->irq, apmu_handle_irq,
				  IRQF_PERCPU | IRQF_NOBALANCING | IRQF_NO_AUTOEN | IRQF_NO_THREAD,
				  "apmu", c);
		if (ret) {
			dev_err(pmu->dev, "cannot request PMU SPI %d for CPU%u: %pe\n", c->irq,
				cpu, ERR_PTR(ret));
			apmu_irq_free(pmu);
			return ret;
		}
		c->irq_requested = true;
	}
	return 0;
}

void apmu_irq_free(struct apmu_pmu *pmu)
{
	unsigned int cpu;

	if (!pmu->has_irq)
		return;
	if (pmu->irq_percpu) {
		free_percpu_irq(pmu->irq, pmu->hw);
		return;
	}
	for_each_cpu(cpu, &pmu->supported_cpus) {
		struct apmu_cpu *c = per_cpu_ptr(pmu->hw, cpu);

		if (c->irq_requested)
			free_irq(c->irq, c);
		c->irq_requested = false;
	}
}

/* On @cpu, which is coming online: its interrupt (routed to it at request) is enabled. */
void apmu_irq_cpu_online(struct apmu_pmu *pmu, unsigned int cpu)
{
	struct apmu_cpu *c = per_cpu_ptr(pmu->hw, cpu);

	if (pmu->irq_percpu)
		enable_percpu_irq(pmu->irq, IRQ_TYPE_NONE);
	else if (c->irq)
		enable_irq(c->irq);
}

/* On @cpu, which is going offline: its interrupt is disabled before it moves away. */
void apmu_irq_cpu_offline(struct apmu_pmu *pmu, unsigned int cpu)
{
	struct apmu_cpu *c = per_cpu_ptr(pmu->hw, cpu);

	if (pmu->irq_percpu)
		disable_percpu_irq(pmu->irq);
	else if (c->irq)
		disable_irq_nosync(c->irq);
}
